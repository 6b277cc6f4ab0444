import Foundation
import SystemCalls
import TestHelpers
import Testing
@testable import UniformTypes

/// The compiled registry file: what is mapped answers as what was built, and a truncated,
/// foreign-version or damaged file is refused (to be rebuilt), never trusted.
@Suite struct RegistryFileTests {
    static func declarations() -> [TypeDeclaration] {
        var diagnostics: [DeclarationDiagnostic] = []
        return TypeDeclaration.declarations(in: TestCatalog.plist, source: "test-catalog", asSystem: true, diagnostics: &diagnostics)
            + [TypeDeclaration(identifier: "com.example.loop", conformsTo: ["com.example.loop", "com.example.nowhere"], kind: .exported, source: "com.example")]
    }

    static func write(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func mappedFileAnswersAsTheBuiltRegistry() throws {
        let image = TypeRegistry.compiledImage(declarations: Self.declarations(), fingerprint: Array("v1".utf8))
        let path = try Self.write(image)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mapped = try TypeRegistry(mapping: path)
        let built = TypeRegistry(declarations: Self.declarations())
        #expect(mapped.typeCount == built.typeCount)
        #expect(mapped.fingerprint == Array("v1".utf8))
        for id in built.allNumbers {
            #expect(mapped.identifier(of: id) == built.identifier(of: id))
            #expect(mapped.supertypes(of: id) == built.supertypes(of: id))
            #expect(mapped.declaration(of: id) == built.declaration(of: id))
        }
        #expect(mapped.diagnostics == built.diagnostics)
        #expect(mapped.diagnostics.contains(.undeclaredParent(identifier: "com.example.loop", parent: "com.example.nowhere", source: "com.example")))
        #expect(mapped.types(tag: "MP4", tagClass: .filenameExtension).map(mapped.identifier(of:)) == ["public.mpeg-4", "public.mpeg-4-audio"])
        #expect(UTType(filenameExtension: "jpg", in: mapped)?.identifier == "public.jpeg")
    }

    /// The checksum is checked once per file version: a file found right is marked with its size
    /// and modification time, and a write that damages it later voids the mark, so the damage is
    /// found. A file modified less than a second ago is not marked (the file system's clock may not
    /// have moved on for the next write).
    @Test func aCheckedFileIsMarkedAndAWriteVoidsTheMark() throws {
        let image = TypeRegistry.compiledImage(declarations: Self.declarations(), fingerprint: [])
        let path = try Self.write(image)
        defer { try? FileManager.default.removeItem(atPath: path) }
        func mark() throws -> [UInt8]? { try MappedFile(path: path, attribute: RegistryImageStorage.checkedAttribute).attribute }
        // As if written just now, whatever the time between this line and the next: a loaded
        // machine once took over a second (the full suite), and the file was rightly marked.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: path)
        _ = try TypeRegistry(mapping: path)
        #expect(try mark() == nil, "a file written just now is not marked")
        // As if written two seconds ago.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2)], ofItemAtPath: path)
        _ = try TypeRegistry(mapping: path)
        let marked = try #require(try mark(), "a checked file is marked (is the temporary folder's file system without user xattrs?)")
        #expect(marked.count == 32)
        #expect(try RegistryImageStorage(mapping: path).isMarkedChecked)
        // One byte damaged in place, size unchanged: the modification time moves, the mark no
        // longer matches, and the checksum finds the damage.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64(image.count / 2))
        try handle.write(contentsOf: [image[image.count / 2] ^ 0x40])
        try handle.close()
        #expect(try !RegistryImageStorage(mapping: path).isMarkedChecked)
        do { _ = try TypeRegistry(mapping: path); Issue.record("a damaged file was trusted") } catch {
            guard case .damaged = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func truncatedForeignAndDamagedFilesAreRefused() throws {
        let image = TypeRegistry.compiledImage(declarations: Self.declarations(), fingerprint: [])
        for cut in [0, 7, 127, image.count / 2, image.count - 1] {
            let path = try Self.write(Array(image.prefix(cut)))
            #expect(throws: RegistryFileError.self) { try TypeRegistry(mapping: path) }
            try? FileManager.default.removeItem(atPath: path)
        }
        var otherVersion = image
        otherVersion[8] = 99
        var damaged = image
        damaged[image.count / 2] ^= 0x40
        var foreign = image
        foreign[0] = UInt8(ascii: "X")
        for (bytes, expected) in [(otherVersion, RegistryFileError.otherVersion(99)), (foreign, .notARegistry)] {
            let path = try Self.write(bytes)
            #expect(throws: expected) { try TypeRegistry(mapping: path) }
            try? FileManager.default.removeItem(atPath: path)
        }
        let path = try Self.write(damaged)
        do { _ = try TypeRegistry(mapping: path); Issue.record("a damaged file was trusted") } catch {
            guard case .damaged = error else { Issue.record("\(error)"); return }
        }
        try? FileManager.default.removeItem(atPath: path)
        #expect(throws: RegistryFileError.self) { try TypeRegistry(mapping: "/nonexistent/registry") }
    }

    /// Corruption that keeps a valid checksum (a hostile or buggy writer) can give wrong answers but
    /// never a bad memory access: every read is bounds-checked.
    @Test func corruptionBehindAValidChecksumNeverCrashes() throws {
        let image = TypeRegistry.compiledImage(declarations: Self.declarations(), fingerprint: [])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            var bytes = image
            for _ in 0..<3 {
                let at = Int.random(in: RegistryImageLayout.headerSize..<bytes.count, using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
            }
            let sum = bytes.withUnsafeBytes { RegistryImageLayout.checksum(UnsafeRawBufferPointer(rebasing: $0[RegistryImageLayout.headerSize...])) }
            withUnsafeBytes(of: sum.littleEndian) { for (i, b) in $0.enumerated() { bytes[24 + i] = b } }
            guard let registry = try? TypeRegistry(image: RegistryImageStorage(copying: bytes)) else { continue }
            for id in registry.allNumbers {
                _ = registry.declaration(of: id)
                _ = registry.conforms(id, to: 0)
                _ = registry.number(of: registry.identifier(of: id))
            }
            _ = registry.types(tag: "jpg", tagClass: .filenameExtension)
            _ = registry.diagnostics
            _ = UTType(filenameExtension: "png", in: registry)?.supertypes
        }
    }
}
