import Testing
@testable import URLSchemes

/// RFC 3986 parsing, percent-decoding, query items, base64url and x-callback-url, on the seeds'
/// URLs and the peer's edge cases (../shared/peers/urlschemes/scheme_dispatch.sh).
@Suite struct SchemeURLTests {
    @Test func componentsAreReadAsRFC3986Defines() throws {
        let url = try SchemeURL("AppB://user%40x:pw@Example.org:8080/a%2Fb/c%20d?x=1&y=%26%3D&flag#frag%21")
        #expect(url.scheme == "AppB" && url.normalizedScheme == "appb")
        #expect(url.authority == "user%40x:pw@Example.org:8080")
        #expect(url.user == "user@x:pw")
        #expect(url.host == "Example.org" && url.port == 8080)
        #expect(url.path == "/a%2Fb/c%20d")
        #expect(url.pathComponents == ["a/b", "c d"])
        #expect(url.queryItems == [QueryItem(name: "x", value: "1"), QueryItem(name: "y", value: "&="), QueryItem(name: "flag", value: nil)])
        #expect(url.queryValue("y") == "&=")
        #expect(url.fragment == "frag%21")
        let ipv6 = try SchemeURL("a://[::1]:99/p")
        #expect(ipv6.host == "[::1]" && ipv6.port == 99)
        let bare = try SchemeURL("mailto:ada@example.org")
        #expect(bare.authority == nil && bare.host == nil && bare.path == "ada@example.org")
    }

    /// Seed 003: appA opens appB://localhost/exportData; appB answers with the payload as the query.
    @Test func seedRoundTripURLs() throws {
        let ask = try SchemeURL("appB://localhost/exportData")
        #expect(ask.normalizedScheme == "appb" && ask.host == "localhost" && ask.pathComponents == ["exportData"])
        let answer = try SchemeURL("appA://localhost/exportedData/data?SlNPTiBTdHJpbmcgZW5jb2RlZCB3aXRoIGJhc2U2NA==")
        #expect(answer.pathComponents == ["exportedData", "data"])
        let payload = try Base64URL.decode(answer.query ?? "")
        #expect(String(decoding: payload, as: UTF8.self) == "JSON String encoded with base64")
    }

    /// The peer's edge cases: digits, `+` and `.` in schemes, no `//`, shell metacharacters, NUL.
    @Test func peerEdgeCases() throws {
        #expect(try SchemeURL("com.example.app2+x://h/p").normalizedScheme == "com.example.app2+x")
        let noSlashes = try SchemeURL("appb:no-slashes?q=1")
        #expect(noSlashes.authority == nil && noSlashes.path == "no-slashes" && noSlashes.queryValue("q") == "1")
        let shell = try SchemeURL("appb://h/p?x=$(touch%20/tmp/pwn)&y=a;id")
        #expect(shell.queryValue("x") == "$(touch /tmp/pwn)" && shell.queryValue("y") == "a;id")
        let nul = try SchemeURL("appb://h/%00%0a")
        #expect(PercentEncoding.decodedBytes(nul.path) == [0x2F, 0x00, 0x0A])
        // `+` is not a space outside HTML forms.
        #expect(try SchemeURL("a://h?q=a+b").queryValue("q") == "a+b")
    }

    @Test func badURLsSayWhatAndWhere() {
        func failure(_ text: String) -> (String, Int)? {
            do { _ = try SchemeURL(text); return nil } catch {
                if case .invalidURL(_, let reason, let offset) = error { return (reason, offset) }
                return nil
            }
        }
        #expect(failure("appb://h/p?x=a b")?.1 == 14)
        #expect(failure("appb://h/p?x=a b")?.0.contains("a space") == true)
        #expect(failure("appb://h/\"';id")?.0.contains("'\"'") == true)
        #expect(failure("appb://h/%zz")?.1 == 9)
        #expect(failure("appb://h/%4")?.0.contains("%XX") == true)
        #expect(failure("appb://h/é")?.0.contains("non-ASCII") == true)
        #expect(failure("1app://h")?.0.contains("start with a letter") == true)
        #expect(failure("no-colon-here")?.1 == 0)
        #expect(failure(":nothing")?.1 == 0)
        #expect(failure("a://h/\u{7}")?.0.contains("control character 0x7") == true)
    }

    @Test func builtURLsCarryAnyTextIntact() throws {
        let values = ["a&b=c#d?e/f:g", "100% + more", "ünïcödé ✓", "", "x-success=evil://", String(repeating: "z", count: 10_000)]
        for value in values {
            let url = try SchemeURL(scheme: "test", host: "x-callback-url", pathSegments: ["act/ion", "two"], queryItems: [QueryItem(name: "v&", value: value)])
            let again = try SchemeURL(url.text)
            #expect(again.queryItems == [QueryItem(name: "v&", value: value)])
            #expect(again.pathComponents == ["act/ion", "two"])
        }
        let appended = try SchemeURL("a://h/p?x=1#f").appending(queryItems: [QueryItem(name: "y", value: "2 3")])
        #expect(appended.text == "a://h/p?x=1&y=2%203#f")
    }

    @Test func base64urlRoundTripsEveryLengthAndReadsPlainBase64() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("+") && !text.contains("/") && !text.contains("="))
            #expect(try Base64URL.decode(text) == bytes)
        }
        #expect(try Base64URL.decode("-_8=") == [0xFB, 0xFF])
        #expect(try Base64URL.decode("+/8=") == [0xFB, 0xFF])
        #expect(throws: URLSchemeError.self) { try Base64URL.decode("ab*d") }
        #expect(throws: URLSchemeError.self) { try Base64URL.decode("abcde") }
    }

    @Test func xCallbackURLsAreReadBuiltAndAnswered() throws {
        let request = try XCallbackRequest(scheme: "person-viewer", action: "exportPerson", parameters: [QueryItem(name: "id", value: "7 & 8")],
                                           source: "com.example.person-editor",
                                           success: try SchemeURL("person-editor://x-callback-url/ok?keep=1"),
                                           error: try SchemeURL("person-editor://x-callback-url/failed"),
                                           cancel: try SchemeURL("person-editor://x-callback-url/cancelled"))
        let read = try #require(XCallbackRequest(try SchemeURL(request.url.text)))
        #expect(read.action == "exportPerson" && read.source == "com.example.person-editor")
        #expect(read.parameter("id") == "7 & 8" && read.parameters.count == 1)
        let success = try #require(read.answer(.success([QueryItem(name: "person", value: "abc")])))
        #expect(success.text == "person-editor://x-callback-url/ok?keep=1&person=abc")
        let error = try #require(read.answer(.error(code: 2, message: "no person")))
        #expect(error.queryValue("errorCode") == "2" && error.queryValue("errorMessage") == "no person")
        #expect(read.answer(.cancel)?.text == "person-editor://x-callback-url/cancelled")
        // The peer's case: an x-success given percent-encoded.
        let peer = try #require(XCallbackRequest(try SchemeURL("appb://x-callback-url/act?x-success=appa%3A%2F%2Fok&x-source=AppA")))
        #expect(peer.success?.text == "appa://ok" && peer.source == "AppA" && peer.error == nil)
        #expect(XCallbackRequest(try SchemeURL("appb://localhost/exportData")) == nil)
    }

    @Test func canOpenQuestionCutsTheSchemeAsTheParserDoes() {
        #expect(CanOpenQuestion.scheme(of: "AppB://x") == "appb")
        #expect(CanOpenQuestion.scheme(of: "com.example.app2+x:") == "com.example.app2+x")
        #expect(CanOpenQuestion.scheme(of: "1app://x") == nil)
        #expect(CanOpenQuestion.scheme(of: "no colon") == nil)
        #expect(CanOpenQuestion.scheme(of: ":x") == nil)
    }

    @Test func desktopExecArgumentsAreQuoted() {
        #expect(DesktopSchemeEntries.execArgument("/usr/bin/openurl") == "/usr/bin/openurl")
        #expect(DesktopSchemeEntries.execArgument("/tmp/a b/$x\"%") == "\"/tmp/a b/\\$x\\\"%%\"")
        #expect(DesktopSchemeEntries.value("a\\b\nc") == "a\\\\b\\nc")
    }
}
