// Apple-platform code, written as one writes it on macOS against Apple's UniformTypeIdentifiers,
// compiled here against ours. Each expectation is what macOS answers; the source of each is given
// beside it: ../shared/vectors/type-behaviour.md (by number), ../shared/vectors/dynamic-uti.tsv
// (rows observed on macOS), or Apple's documentation and headers.
//
// The only thing this file needs from Linux is the suite it extends (TestDevice.swift, where a
// macOS project would declare `@Suite struct UniformTypeIdentifiersTests {}`), whose device has an
// app that exports com.example.drawing and imports com.example.shared-format, as an app's
// Info.plist would.

import Foundation
import Testing
import UniformTypeIdentifiers

extension UniformTypeIdentifiersTests {
    @Test func pngIsAnImage() {
        // type-behaviour.md 2: reflexive, transitive; subtype and supertype exclude equality.
        #expect(UTType.png.conforms(to: .image))
        #expect(UTType.png.conforms(to: .png))
        #expect(UTType.png.conforms(to: .data) && UTType.png.conforms(to: .item) && UTType.png.conforms(to: .content))
        #expect(!UTType.png.isSubtype(of: .png))
        #expect(UTType.png.isSubtype(of: .image))
        #expect(UTType.image.isSupertype(of: .png))
        #expect(!UTType.image.conforms(to: .png))
    }

    @Test func identifiersCompareIgnoringCase() throws {
        // type-behaviour.md 1.
        let jpeg = try #require(UTType("public.JPEG"))
        #expect(jpeg == .jpeg)
        #expect(jpeg.hashValue == UTType.jpeg.hashValue)
        #expect(jpeg.identifier == "public.jpeg")
        #expect(Set([UTType.png, UTType("public.PNG")!, .jpeg]).count == 2)
    }

    @Test func supertypesAreTheClosure() throws {
        // type-behaviour.md 3.
        #expect(Set(UTType.zip.supertypes.map(\.identifier)) == ["com.pkware.zip-archive", "public.data", "public.item", "public.archive"])
        #expect(!UTType.zip.conforms(to: .content))
        #expect(UTType.jpeg.supertypes == [.image, .data, .item, .content])
        for parent: UTType in [.plainText, .delimitedText, .text, .data, .item, .content] {
            #expect(UTType.commaSeparatedText.conforms(to: parent))
        }
        #expect(UTType.svg.conforms(to: .image) && UTType.svg.conforms(to: .xml) && UTType.svg.conforms(to: .text))
    }

    @Test func filenameExtensions() throws {
        // type-behaviour.md 6: case-insensitive; the first tag is preferred.
        let jpg = try #require(UTType(filenameExtension: "JPG"))
        #expect(jpg == .jpeg)
        #expect(jpg.preferredFilenameExtension == "jpeg")
        #expect(jpg.preferredMIMEType == "image/jpeg")
        // type-behaviour.md 7.
        #expect(UTType(filenameExtension: "yaml")?.preferredFilenameExtension == "yml")
        #expect(UTType(filenameExtension: "htm") == .html)
        #expect(UTType(filenameExtension: "text") == .plainText)
        #expect(UTType(filenameExtension: "tif")?.preferredFilenameExtension == "tiff")
        // type-behaviour.md 8: public types first; a supertype narrows.
        #expect(UTType(filenameExtension: "mp4") == .mpeg4Movie)
        #expect(UTType(filenameExtension: "ts") == .mpeg2TransportStream)
        #expect(UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: nil) == [.mpeg4Movie, .mpeg4Audio])
        #expect(UTType(filenameExtension: "mp4", conformingTo: .audio) == .mpeg4Audio)
        #expect(UTType(tag: "png", tagClass: .filenameExtension, conformingTo: .image) == .png)
    }

    @Test func mimeTypes() {
        // type-behaviour.md 6: MIME types match ignoring case.
        #expect(UTType(mimeType: "image/png") == .png)
        #expect(UTType(mimeType: "IMAGE/PNG") == .png)
        #expect(UTType(mimeType: "application/pdf") == .pdf)
        #expect(UTType.types(tag: "image/jpeg", tagClass: .mimeType, conformingTo: .image).first == .jpeg)
    }

    @Test func unknownTagsGiveDynamicTypes() throws {
        // dynamic-uti.tsv, rows observed on macOS: ?0=6:1=md, ?0=6:1=srt, ?0=6:3=dev.kaya/note.
        let md = try #require(UTType(filenameExtension: "md"))
        #expect(md.identifier == "dyn.ah62d4rv4ge8043a")
        #expect(UTType(filenameExtension: "srt")?.identifier == "dyn.ah62d4rv4ge81g6xy")
        #expect(UTType(mimeType: "dev.kaya/note")?.identifier == "dyn.ah62d4rv4gq80k3p0f3z0c8pbf71g87df")
        // type-behaviour.md 10: dynamic, not declared, not public, no description, conforms to data.
        let srt = try #require(UTType(filenameExtension: "SRT"))
        #expect(srt.isDynamic && !srt.isDeclared && !srt.isPublic)
        #expect(srt.localizedDescription == nil)
        #expect(srt.conforms(to: .data) && srt.conforms(to: .item) && !srt.conforms(to: .text))
        #expect(srt.tags == [.filenameExtension: ["srt"]])
        #expect(srt.preferredFilenameExtension == "srt")
        // type-behaviour.md 11: without a constraint the ?0= pair is left out.
        #expect(UTType(tag: "rs", tagClass: .filenameExtension, conformingTo: nil)?.identifier == "dyn.age81e62")
        #expect(UTType(filenameExtension: "rs", conformingTo: .plainText)?.identifier == "dyn.ah62d4sb4ge81e62")
        // Apple's types(tag:tagClass:conformingTo:): "it may provide a dynamic type".
        #expect(UTType.types(tag: "srt", tagClass: .filenameExtension, conformingTo: .data).map(\.identifier) == ["dyn.ah62d4rv4ge81g6xy"])
    }

    @Test func dynamicIdentifiersDecodeBack() {
        // type-behaviour.md 12.
        #expect(UTType("dyn.ah62d4rv4ge81g6xy")?.preferredFilenameExtension == "srt")
        #expect(UTType("dyn.ah62d4rv4ge81g6xy")?.conforms(to: .data) == true)
        #expect(UTType("dyn.a!!") == nil)
    }

    @Test func unknownIdentifiersAreNil() {
        // Apple's init(_:): "returns nil if the system doesn't know the type identifier".
        #expect(UTType("com.example.nobody-declares-this") == nil)
        #expect(UTType("public/text") == nil)
    }

    @Test func declaredPublicAndDynamic() {
        // Apple's isPublic: identifiers starting with "public."; isDeclared/isDynamic as the
        // system declares or generates the type.
        #expect(UTType.png.isPublic && UTType.png.isDeclared && !UTType.png.isDynamic)
        #expect(!UTType.pdf.isPublic && UTType.pdf.isDeclared)
        #expect(UTType.png.localizedDescription != nil)
    }

    @Test func tagClassesAndTags() {
        // Apple's UTTagClass: the raw values are the tag class identifiers.
        #expect(UTTagClass.filenameExtension.rawValue == "public.filename-extension")
        #expect(UTTagClass.mimeType.rawValue == "public.mime-type")
        #expect(UTTagClass(rawValue: "public.mime-type") == .mimeType)
        // Apple's tags: UTType.mpeg.tags[.filenameExtension] lists the MPEG extensions; a class
        // without tags is nil, not an empty array.
        #expect(UTType.mpeg.tags[.filenameExtension]?.isEmpty == false)
        #expect(UTType.png.tags[.mimeType] == ["image/png"])
        #expect(UTType.folder.tags[.filenameExtension] == nil)
        #expect(UTType.png.tags[UTTagClass(rawValue: "public.url-scheme")] == nil)
    }

    @Test func typesTheAppExportsAndImports() throws {
        // An app's own type, declared in its Info.plist (UTExportedTypeDeclarations).
        let drawing = UTType(exportedAs: "com.example.drawing")
        #expect(drawing.isDeclared && !drawing.isDynamic)
        #expect(drawing.conforms(to: .data) && drawing.conforms(to: .content))
        #expect(drawing.preferredFilenameExtension == "exdraw")
        #expect(drawing.preferredMIMEType == "application/x-example-drawing")
        #expect(drawing.localizedDescription == "Example drawing")
        #expect(UTType(filenameExtension: "exdraw") == drawing)
        #expect(UTType(exportedAs: "com.example.drawing", conformingTo: .data) == drawing)
        // Another app's type the app uses (UTImportedTypeDeclarations).
        let shared = UTType(importedAs: "com.example.shared-format", conformingTo: .data)
        #expect(shared.identifier == "com.example.shared-format" && shared.isDeclared)
        #expect(UTType(filenameExtension: "shared") == shared)
        // A type no Info.plist declares: Apple logs the missing declaration and still answers
        // a type of that identifier.
        let x = UTType(exportedAs: "com.example.x", conformingTo: .data)
        #expect(x.identifier == "com.example.x")
        #expect(!x.isDynamic)
        #expect(x.conforms(to: .data) && !x.conforms(to: .image))
    }

    @Test func codableRoundTrip() throws {
        struct Document: Codable, Equatable {
            var name: String
            var contentType: UTType
            var accepted: [UTType]
        }
        let document = Document(name: "notes", contentType: UTType(filenameExtension: "md")!,
                                accepted: [.png, .plainText, UTType(exportedAs: "com.example.drawing")])
        let data = try JSONEncoder().encode(document)
        #expect(try JSONDecoder().decode(Document.self, from: data) == document)
        // Apple's encode(to:) writes a type that is not one of its constants as the bare identifier.
        #expect(String(decoding: try JSONEncoder().encode([UTType(filenameExtension: "md")!]), as: UTF8.self)
                == #"["dyn.ah62d4rv4ge8043a"]"#)
        // Apple's init(from:) reads the keyed form it writes for its constants.
        let keyed = Data(#"{"identifier":"public.png","constantIndex":45}"#.utf8)
        #expect(try JSONDecoder().decode(UTType.self, from: keyed) == .png)
        #expect(try JSONDecoder().decode(UTType.self, from: Data(#""public.jpeg""#.utf8)) == .jpeg)
        let plist = try PropertyListEncoder().encode(document)
        #expect(try PropertyListDecoder().decode(Document.self, from: plist) == document)
    }

    @Test func typesAsDictionaryKeys() {
        var openers: [UTType: String] = [.png: "Preview", .plainText: "TextEdit"]
        openers[UTType("public.PNG")!] = "Photos"
        #expect(openers.count == 2 && openers[.png] == "Photos")
    }

    @Test func fileNamesForATypeURL() {
        // NSString(UTAdditions) in Apple's header: "readme" with UTTypePlainText gives "readme.txt".
        let folder = URL(fileURLWithPath: "/tmp/exports", isDirectory: true)
        #expect(folder.appendingPathComponent("readme", conformingTo: .plainText).lastPathComponent == "readme.txt")
        // Apple's URL.appendPathComponent(_:conformingTo:): "puppy.jpg" is already valid for JPEG.
        var url = folder
        url.appendPathComponent("puppy.jpg", conformingTo: .jpeg)
        #expect(url.lastPathComponent == "puppy.jpg")
        #expect(folder.appendingPathComponent("scan").appendingPathExtension(for: .pdf).lastPathComponent == "scan.pdf")
    }

    @Test func constantsHaveApplesIdentifiers() {
        let constants = AppleConstants.all
        #expect(constants.count == 140)
        for (type, identifier) in constants {
            #expect(type.identifier == identifier)
        }
    }
}
