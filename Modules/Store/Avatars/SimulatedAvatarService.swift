public import MVCModel

/// A stand-in avatar service: a deterministic picture per address, after an adjustable latency,
/// failing at an adjustable rate.
///
/// Whether a request fails is decided by a hash of the address and how many times it was
/// requested, compared with the failure rate: the same script gives the same failures on every
/// run, and a retry of a failed address can succeed. The wait is measured on an injected clock,
/// so tests decide when it ends.
public actor SimulatedAvatarService: AvatarService {
    /// How long each request takes.
    public private(set) var latency: Duration
    /// The share of requests that fail, 0...1.
    public private(set) var failureRate: Double
    /// How many requests the service has received.
    public private(set) var callCount = 0
    private var attempts: [EmailAddress: Int] = [:]
    private let clock: any Clock<Duration>

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - latency: How long each request takes.
    ///   - failureRate: The share of requests that fail, clamped to 0...1.
    ///   - clock: The clock the latency is measured on; a test passes one it advances by hand.
    public init(
        latency: Duration = .zero,
        failureRate: Double = 0,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.latency = latency
        self.failureRate = min(max(failureRate, 0), 1)
        self.clock = clock
    }

    /// Changes how long each request takes, from the next request on.
    public func setLatency(_ latency: Duration) {
        self.latency = latency
    }

    /// Changes the share of requests that fail (clamped to 0...1), from the next request on.
    public func setFailureRate(_ rate: Double) {
        failureRate = min(max(rate, 0), 1)
    }

    /// Waits out the latency, then returns the address's picture, or fails as the rate says.
    public func avatar(for address: EmailAddress) async throws(AvatarServiceError) -> Avatar {
        callCount += 1
        let attempt = attempts[address, default: 0] + 1
        attempts[address] = attempt
        let fails = Self.draw("\(address.key)#\(attempt)") < failureRate
        if latency > .zero {
            do { try await clock.sleep(for: latency) } catch { throw .cancelled }
        }
        if Task.isCancelled { throw .cancelled }
        // A test double fails the way a real source does (a transport failure), so the
        // interface's error enum has no case that only the double can produce.
        if fails {
            throw .transport(
                "the simulated service failed on purpose (failure rate)",
                url: "simulated:\(address)")
        }
        return Avatar(data: Self.picture(for: address).netpbmData)
    }

    /// The address's picture: an 8 by 8 pattern, mirrored left to right, in a dark colour of its own on a light ground.
    public static func picture(for address: EmailAddress) -> Picture {
        let hash = fnv1a(address.key)
        let colour = Picture.Pixel(
            red: UInt8(truncatingIfNeeded: hash >> 8) & 0x9F,
            green: UInt8(truncatingIfNeeded: hash >> 16) & 0x9F,
            blue: UInt8(truncatingIfNeeded: hash >> 24) & 0x9F
        )
        let background = Picture.Pixel(red: 0xF0, green: 0xF0, blue: 0xF0)
        return Picture(width: 8, height: 8) { column, row in
            let mirrored = column < 4 ? column : 7 - column
            let isSet = (hash >> UInt64(32 + row * 4 + mirrored)) & 1 == 1
            return isSet ? colour : background
        }
    }

    /// A number in 0..<1 fixed by `text`, the same on every run and platform.
    private static func draw(_ text: String) -> Double {
        Double(fnv1a(text) % 10_000) / 10_000
    }

    /// The 64-bit FNV-1a hash: stable across runs, unlike `Hasher`.
    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
