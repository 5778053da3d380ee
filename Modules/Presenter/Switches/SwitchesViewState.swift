/// What the Switches screen shows: a label saying what happened last, and a button per switch.
public struct SwitchesViewState: Equatable, Sendable {
    /// The button of one switch.
    public struct Button: Equatable, Sendable {
        /// The button's title: the switch's name.
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
    /// A button per switch, in the model's order.
    public var buttons: [Button]

    /// Creates the screen's view-state.
    public init(label: String, buttons: [Button]) {
        self.label = label
        self.buttons = buttons
    }

    /// The label shown before any switch has changed.
    public static let initialLabel = "Press a button."
}
