import Foundation
import MVCModel
import Testing

@Suite("E-mail addresses")
struct EmailAddressTests {
    @Test("one mailbox is one address whatever the case of any part, and shows as it was typed")
    func caseFolding() throws {
        let address = try EmailAddress("  Ada.Lovelace@Example.COM \n")

        #expect(address.rawValue == "Ada.Lovelace@Example.COM")
        #expect(address.description == "Ada.Lovelace@Example.COM")
        #expect(address.key == "ada.lovelace@example.com")
        #expect(try EmailAddress("ada.lovelace@example.com") == address)
        #expect(try EmailAddress("ADA.LOVELACE@EXAMPLE.COM") == address)
        #expect(Set([address, try EmailAddress("ada.LOVELACE@example.com")]).count == 1)
        #expect(try EmailAddress("ada.lovelace@example.org") != address)
        #expect(try EmailAddress("BOB@Example.COM") < EmailAddress("carol@example.com"))
    }

    @Test("a saved address keeps its spelling and decodes to the same mailbox")
    func codableKeepsSpelling() throws {
        let address = try EmailAddress("Bob@Example.COM")
        let data = try JSONEncoder().encode([address])
        #expect(String(decoding: data, as: UTF8.self) == #"["Bob@Example.COM"]"#)
        let decoded = try JSONDecoder().decode([EmailAddress].self, from: data)
        #expect(decoded == [try EmailAddress("bob@example.com")])
        #expect(decoded.first?.rawValue == "Bob@Example.COM")
    }

    @Test(
        "invalid input is a typed error, never a crash",
        arguments: [
            ("", EmailAddressError.empty),
            ("   ", .empty),
            ("ada.example.com", .missingAtSign),
            ("@example.com", .emptyLocalPart),
            ("ada@", .emptyDomain),
            ("ada lovelace@example.com", .invalidCharacter(" ")),
            ("adä@example.com", .invalidCharacter("ä")),
            (".ada@example.com", .misplacedDot),
            ("ada..l@example.com", .misplacedDot),
            ("ada@localhost", .invalidDomain("localhost")),
            ("ada@-example.com", .invalidDomain("-example.com")),
            ("ada@exa_mple.com", .invalidDomain("exa_mple.com")),
            ("ada@example..com", .invalidDomain("example..com")),
        ]
    )
    func invalid(text: String, error: EmailAddressError) {
        #expect(throws: error) { try EmailAddress(text) }
    }

    @Test("lengths are bounded as the standard says")
    func lengths() {
        let longLocal = String(repeating: "a", count: 65)
        #expect(throws: EmailAddressError.localPartTooLong(65)) {
            try EmailAddress("\(longLocal)@example.com")
        }
        let longDomain = String(repeating: "a.", count: 130) + "com"
        #expect(throws: EmailAddressError.tooLong(267)) { try EmailAddress("ada@\(longDomain)") }
    }

    @Test("plus tags and other allowed symbols are kept")
    func symbols() throws {
        #expect(
            try EmailAddress("ada+avatars@example.co.uk").rawValue == "ada+avatars@example.co.uk")
    }

    @Test("an address decodes only if it is valid")
    func codable() throws {
        let decoded = try JSONDecoder().decode(
            [EmailAddress].self, from: Data(#"["Ada@EXAMPLE.com"]"#.utf8))
        #expect(decoded.map(\.rawValue) == ["Ada@EXAMPLE.com"])
        #expect(decoded == [try EmailAddress("ada@example.com")])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([EmailAddress].self, from: Data(#"["nope"]"#.utf8))
        }
    }

    @Test("errors read as sentences")
    func descriptions() {
        #expect(
            EmailAddressError.missingAtSign.description
                == "an e-mail address needs an @ between the name and the domain")
    }
}

@Suite("Pictures and formats")
struct PictureTests {
    @Test("a plain P3 picture decodes, with comments, and samples are scaled to 0...255")
    func plainPPM() throws {
        let text = "P3\n# a comment\n2 1\n15\n15 0 0   0 15 0\n"

        let picture = try Picture(netpbm: Data(text.utf8))

        #expect(picture.width == 2 && picture.height == 1)
        #expect(
            picture.pixels == [
                .init(red: 255, green: 0, blue: 0), .init(red: 0, green: 255, blue: 0),
            ])
    }

    @Test("a binary P6 picture round-trips through netpbmData")
    func binaryPPM() throws {
        let original = Picture(width: 3, height: 2) { column, row in
            .init(red: UInt8(column * 80), green: UInt8(row * 200), blue: 7)
        }

        #expect(try Picture(netpbm: original.netpbmData) == original)
    }

    @Test("16-bit samples are scaled down")
    func sixteenBit() throws {
        var data = Data("P6 1 1 65535\n".utf8)
        data.append(contentsOf: [0xFF, 0xFF, 0x00, 0x00, 0x80, 0x00])

        #expect(try Picture(netpbm: data).pixels == [.init(red: 255, green: 0, blue: 127)])
    }

    @Test(
        "broken pictures are typed errors",
        arguments: [
            ("P5 1 1 255\n\u{0}", PictureError.notNetpbm),
            ("P6 0 1 255\n", .badHeader),
            ("P6 99999 1 255\n", .badHeader),
            ("P6 2 2 255\nabc", .truncated),
            ("P3 1 1 255 1 2", .truncated),
            ("P3", .badHeader),
            ("P3 1 1 255 -1 0 0", .truncated),
            ("P3 -1 1 255 0 0 0", .badHeader),
            ("P3 1 1 15 16 0 0", .sampleOutOfRange(maximum: 15)),
            ("P6 4096 4096 255\n", .truncated),
        ]
    )
    func broken(text: String, error: PictureError) {
        #expect(throws: error) { try Picture(netpbm: Data(text.utf8)) }
    }

    @Test("image formats are recognized by their first bytes")
    func formats() {
        #expect(ImageFormat(recognizing: Data("P6 1 1 255\n".utf8)) == .netpbm)
        #expect(ImageFormat(recognizing: Data("P3".utf8)) == .netpbm)
        #expect(ImageFormat(recognizing: Data([0x89, 0x50, 0x4E, 0x47, 0x0D])) == .png)
        #expect(ImageFormat(recognizing: Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
        #expect(ImageFormat(recognizing: Data("GIF89a".utf8)) == .gif)
        #expect(ImageFormat(recognizing: Data("hello".utf8)) == .unknown)
    }

    @Test("each update carries the key of what it is about")
    func updateKeys() throws {
        let ada = try EmailAddress("ada@example.com")

        #expect(ModelUpdate.avatarLoaded(ada).key == .avatar(ada))
        #expect(ModelUpdate.avatarFailed(ada, message: "x").key == .avatar(ada))
        #expect(ModelUpdate.contactsChanged.key == .contacts)
    }
}
