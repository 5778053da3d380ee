/// What an avatar shows: nothing yet, a spinner, a picture, or why it failed.
public struct AvatarViewState: Equatable, Sendable {
    /// Where the avatar stands.
    public enum Status: Equatable, Sendable {
        /// Nobody asked for it yet (or the request was cancelled).
        case notRequested
        /// A request is on its way.
        case loading
        /// It arrived; here is what to draw.
        case loaded(PictureViewState)
        /// The request failed; the message says why.
        case failed(message: String)
    }

    /// The address the avatar belongs to, as shown.
    public var address: String
    /// Where the avatar stands.
    public var status: Status

    /// Creates an avatar's view-state.
    public init(address: String, status: Status) {
        self.address = address
        self.status = status
    }
}

/// A picture as a view can draw it.
public enum PictureViewState: Equatable, Sendable {
    /// A picture the view can draw pixel by pixel, row by row from the top left.
    case drawable(width: Int, height: Int, pixels: [Color])
    /// A picture in a format the view cannot draw: shown by type and size.
    case undrawable(format: String, byteCount: Int)

    /// One pixel's colour, 0...255 per channel.
    public struct Color: Equatable, Sendable, Hashable {
        /// Red.
        public var red: UInt8
        /// Green.
        public var green: UInt8
        /// Blue.
        public var blue: UInt8

        /// Creates a colour.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }
}

/// One row of the contact list: who, and their avatar.
public struct ContactRowViewState: Equatable, Sendable, Identifiable {
    /// The contact's name.
    public var name: String
    /// The contact's avatar, with its address.
    public var avatar: AvatarViewState

    /// Creates a row.
    public init(name: String, avatar: AvatarViewState) {
        self.name = name
        self.avatar = avatar
    }

    /// The contact's address, which identifies the row.
    public var id: String { avatar.address }
}

/// What the contact list shows: the rows, and the last thing that went wrong.
public struct ContactListViewState: Equatable, Sendable {
    /// The contacts, in the order they were added.
    public var rows: [ContactRowViewState]
    /// Why the last thing the user tried failed; `nil` after a success.
    public var lastError: String?

    /// Creates the list's view-state.
    public init(rows: [ContactRowViewState], lastError: String? = nil) {
        self.rows = rows
        self.lastError = lastError
    }
}
