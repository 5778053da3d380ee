/// What the Switches screen shows: a label saying what happened last, and two buttons.
public struct SwitchesViewState: Equatable, Sendable {
    /// One of the two buttons.
    public struct Button: Equatable, Sendable {
        /// The button's title.
        public var title: String
        /// Whether the switch the button toggles is on.
        public var isOn: Bool

        /// Creates a button's view-state.
        public init(title: String, isOn: Bool) {
            self.title = title
            self.isOn = isOn
        }
    }

    /// Says which switch changed last, and how.
    public var label: String
    /// The button that toggles switch A.
    public var buttonA: Button
    /// The button that toggles switch B.
    public var buttonB: Button

    /// Creates the screen's view-state.
    public init(label: String, buttonA: Button, buttonB: Button) {
        self.label = label
        self.buttonA = buttonA
        self.buttonB = buttonB
    }

    /// The label shown before any switch has changed.
    public static let initialLabel = "Press a button."
}
