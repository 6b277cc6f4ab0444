import UniformTypes

// Apple's 140 UTType constants (UTCoreTypes.h; Apple's "System-declared uniform type identifiers"
// page for the Swift names), each the type of the same identifier in the default registry. The
// descriptions are ours. A catalog that lacks a constant's type still answers it, as a type of
// that identifier that is not declared: three of these are newer than UTIs/ (public.jpeg-xl,
// public.geojson, com.apple.linkpresentation.metadata); they keep the parent Apple documents, or
// public.data where it documents none (the conformance Apple assumes of an exported type).

extension UTType {
    /// `public.item`: The base type of most things in a file system: files, folders, packages.
    public static var item: UTType { constant("public.item") }
    /// `public.content`: The base type of anything with content a person can view: documents, pasteboard
    /// data, document packages.
    public static var content: UTType { constant("public.content") }
    /// `public.composite-content`: The base type of formats that embed content of several kinds (PDF,
    /// RTFD).
    public static var compositeContent: UTType { constant("public.composite-content") }
    /// `public.disk-image`: Data that can be mounted as a volume.
    public static var diskImage: UTType { constant("public.disk-image") }
    /// `public.data`: The base type of every byte stream: files and in-memory data.
    public static var data: UTType { constant("public.data") }
    /// `public.directory`: A file system directory: folders and packages.
    public static var directory: UTType { constant("public.directory") }
    /// `com.apple.resolvable`: The base type of references to other items: symbolic links and aliases.
    public static var resolvable: UTType { constant("com.apple.resolvable") }
    /// `public.symlink`: A symbolic link.
    public static var symbolicLink: UTType { constant("public.symlink") }
    /// `public.executable`: The base type of executables.
    public static var executable: UTType { constant("public.executable") }
    /// `com.apple.mount-point`: A volume's mount point.
    public static var mountPoint: UTType { constant("com.apple.mount-point") }
    /// `com.apple.alias-file`: A Finder alias file.
    public static var aliasFile: UTType { constant("com.apple.alias-file") }
    /// `com.apple.bookmark`: URL bookmark data.
    public static var urlBookmarkData: UTType { constant("com.apple.bookmark") }
    /// `public.url`: A URL.
    public static var url: UTType { constant("public.url") }
    /// `public.file-url`: A URL that names a file.
    public static var fileURL: UTType { constant("public.file-url") }
    /// `public.text`: The base type of text, with or without markup.
    public static var text: UTType { constant("public.text") }
    /// `public.plain-text`: Text without markup, in an unspecified encoding.
    public static var plainText: UTType { constant("public.plain-text") }
    /// `public.utf8-plain-text`: Plain text in UTF-8.
    public static var utf8PlainText: UTType { constant("public.utf8-plain-text") }
    /// `public.utf16-external-plain-text`: Plain text in UTF-16 with an optional byte order mark.
    public static var utf16ExternalPlainText: UTType { constant("public.utf16-external-plain-text") }
    /// `public.utf16-plain-text`: Plain text in UTF-16 in the native byte order, with an optional byte
    /// order mark.
    public static var utf16PlainText: UTType { constant("public.utf16-plain-text") }
    /// `public.delimited-values-text`: The base type of text holding values separated by a delimiter.
    public static var delimitedText: UTType { constant("public.delimited-values-text") }
    /// `public.comma-separated-values-text`: Comma-separated values (CSV).
    public static var commaSeparatedText: UTType { constant("public.comma-separated-values-text") }
    /// `public.tab-separated-values-text`: Tab-separated values.
    public static var tabSeparatedText: UTType { constant("public.tab-separated-values-text") }
    /// `public.utf8-tab-separated-values-text`: Tab-separated values in UTF-8.
    public static var utf8TabSeparatedText: UTType { constant("public.utf8-tab-separated-values-text") }
    /// `public.rtf`: Rich Text Format.
    public static var rtf: UTType { constant("public.rtf") }
    /// `public.html`: HTML, any version.
    public static var html: UTType { constant("public.html") }
    /// `public.xml`: XML.
    public static var xml: UTType { constant("public.xml") }
    /// `public.yaml`: YAML.
    public static var yaml: UTType { constant("public.yaml") }
    /// `public.css`: Cascading Style Sheets.
    public static var css: UTType { constant("public.css") }
    /// `public.source-code`: The base type of source code in any language.
    public static var sourceCode: UTType { constant("public.source-code") }
    /// `public.assembly-source`: Assembly language source.
    public static var assemblyLanguageSource: UTType { constant("public.assembly-source") }
    /// `public.c-source`: C source.
    public static var cSource: UTType { constant("public.c-source") }
    /// `public.objective-c-source`: Objective-C source.
    public static var objectiveCSource: UTType { constant("public.objective-c-source") }
    /// `public.swift-source`: Swift source.
    public static var swiftSource: UTType { constant("public.swift-source") }
    /// `public.c-plus-plus-source`: C++ source.
    public static var cPlusPlusSource: UTType { constant("public.c-plus-plus-source") }
    /// `public.objective-c-plus-plus-source`: Objective-C++ source.
    public static var objectiveCPlusPlusSource: UTType { constant("public.objective-c-plus-plus-source") }
    /// `public.c-header`: A C header.
    public static var cHeader: UTType { constant("public.c-header") }
    /// `public.c-plus-plus-header`: A C++ header.
    public static var cPlusPlusHeader: UTType { constant("public.c-plus-plus-header") }
    /// `public.script`: The base type of scripts in any language.
    public static var script: UTType { constant("public.script") }
    /// `com.apple.applescript.text`: An AppleScript script as text.
    public static var appleScript: UTType { constant("com.apple.applescript.text") }
    /// `com.apple.applescript.script`: A compiled Open Scripting Architecture script.
    public static var osaScript: UTType { constant("com.apple.applescript.script") }
    /// `com.apple.applescript.script-bundle`: An Open Scripting Architecture script bundle.
    public static var osaScriptBundle: UTType { constant("com.apple.applescript.script-bundle") }
    /// `com.netscape.javascript-source`: JavaScript source.
    public static var javaScript: UTType { constant("com.netscape.javascript-source") }
    /// `public.shell-script`: The base type of shell scripts.
    public static var shellScript: UTType { constant("public.shell-script") }
    /// `public.perl-script`: A Perl script.
    public static var perlScript: UTType { constant("public.perl-script") }
    /// `public.python-script`: A Python script.
    public static var pythonScript: UTType { constant("public.python-script") }
    /// `public.ruby-script`: A Ruby script.
    public static var rubyScript: UTType { constant("public.ruby-script") }
    /// `public.php-script`: A PHP script.
    public static var phpScript: UTType { constant("public.php-script") }
    /// `public.make-source`: A makefile.
    public static var makefile: UTType { constant("public.make-source") }
    /// `public.json`: JSON.
    public static var json: UTType { constant("public.json") }
    /// `com.apple.property-list`: The base type of property lists.
    public static var propertyList: UTType { constant("com.apple.property-list") }
    /// `com.apple.xml-property-list`: A property list in XML.
    public static var xmlPropertyList: UTType { constant("com.apple.xml-property-list") }
    /// `com.apple.binary-property-list`: A property list in the binary format.
    public static var binaryPropertyList: UTType { constant("com.apple.binary-property-list") }
    /// `com.adobe.pdf`: A PDF document.
    public static var pdf: UTType { constant("com.adobe.pdf") }
    /// `com.apple.rtfd`: A Rich Text Format Directory (a package).
    public static var rtfd: UTType { constant("com.apple.rtfd") }
    /// `com.apple.flat-rtfd`: A Rich Text Format Directory flattened into one file.
    public static var flatRTFD: UTType { constant("com.apple.flat-rtfd") }
    /// `com.apple.webarchive`: A WebKit web archive.
    public static var webArchive: UTType { constant("com.apple.webarchive") }
    /// `public.image`: The base type of images.
    public static var image: UTType { constant("public.image") }
    /// `public.jpeg`: A JPEG image.
    public static var jpeg: UTType { constant("public.jpeg") }
    /// `public.tiff`: A TIFF image.
    public static var tiff: UTType { constant("public.tiff") }
    /// `com.compuserve.gif`: A GIF image.
    public static var gif: UTType { constant("com.compuserve.gif") }
    /// `public.png`: A PNG image.
    public static var png: UTType { constant("public.png") }
    /// `com.apple.icns`: An Apple icon image.
    public static var icns: UTType { constant("com.apple.icns") }
    /// `com.microsoft.bmp`: A Windows bitmap image.
    public static var bmp: UTType { constant("com.microsoft.bmp") }
    /// `com.microsoft.ico`: A Windows icon image.
    public static var ico: UTType { constant("com.microsoft.ico") }
    /// `public.camera-raw-image`: The base type of camera raw images.
    public static var rawImage: UTType { constant("public.camera-raw-image") }
    /// `public.svg-image`: A Scalable Vector Graphics image.
    public static var svg: UTType { constant("public.svg-image") }
    /// `com.apple.live-photo`: A Live Photo.
    public static var livePhoto: UTType { constant("com.apple.live-photo") }
    /// `public.heif`: A High Efficiency Image File Format image.
    public static var heif: UTType { constant("public.heif") }
    /// `public.heic`: A High Efficiency Image Coding image.
    public static var heic: UTType { constant("public.heic") }
    /// `public.heics`: A High Efficiency Image Coding image sequence.
    public static var heics: UTType { constant("public.heics") }
    /// `org.webmproject.webp`: A WebP image.
    public static var webP: UTType { constant("org.webmproject.webp") }
    /// `com.ilm.openexr-image`: An OpenEXR image.
    public static var exr: UTType { constant("com.ilm.openexr-image") }
    /// `com.adobe.raw-image`: An Adobe Digital Negative image.
    public static var dng: UTType { constant("com.adobe.raw-image") }
    /// `public.jpeg-xl`: A JPEG XL image.
    public static var jpegxl: UTType { constant("public.jpeg-xl", fallbackParent: "public.image") }
    /// `public.3d-content`: The base type of 3D content.
    public static var threeDContent: UTType { constant("public.3d-content") }
    /// `com.pixar.universal-scene-description`: Universal Scene Description content.
    public static var usd: UTType { constant("com.pixar.universal-scene-description") }
    /// `com.pixar.universal-scene-description-mobile`: A Universal Scene Description package.
    public static var usdz: UTType { constant("com.pixar.universal-scene-description-mobile") }
    /// `com.apple.reality`: A Reality Composer file.
    public static var realityFile: UTType { constant("com.apple.reality") }
    /// `com.apple.scenekit.scene`: A serialized SceneKit scene.
    public static var sceneKitScene: UTType { constant("com.apple.scenekit.scene") }
    /// `com.apple.arobject`: An augmented-reality reference object.
    public static var arReferenceObject: UTType { constant("com.apple.arobject") }
    /// `public.audiovisual-content`: The base type of audio and video.
    public static var audiovisualContent: UTType { constant("public.audiovisual-content") }
    /// `public.movie`: The base type of media that may hold both video and audio.
    public static var movie: UTType { constant("public.movie") }
    /// `public.video`: Video without audio.
    public static var video: UTType { constant("public.video") }
    /// `public.audio`: Audio without video.
    public static var audio: UTType { constant("public.audio") }
    /// `com.apple.quicktime-movie`: A QuickTime movie.
    public static var quickTimeMovie: UTType { constant("com.apple.quicktime-movie") }
    /// `public.mpeg`: An MPEG-1 or MPEG-2 movie.
    public static var mpeg: UTType { constant("public.mpeg") }
    /// `public.mpeg-2-video`: MPEG-2 video.
    public static var mpeg2Video: UTType { constant("public.mpeg-2-video") }
    /// `public.mpeg-2-transport-stream`: An MPEG-2 transport stream.
    public static var mpeg2TransportStream: UTType { constant("public.mpeg-2-transport-stream") }
    /// `public.mp3`: MP3 audio.
    public static var mp3: UTType { constant("public.mp3") }
    /// `public.mpeg-4`: An MPEG-4 movie.
    public static var mpeg4Movie: UTType { constant("public.mpeg-4") }
    /// `public.mpeg-4-audio`: MPEG-4 audio.
    public static var mpeg4Audio: UTType { constant("public.mpeg-4-audio") }
    /// `com.apple.protected-mpeg-4-audio`: Apple-protected MPEG-4 audio.
    public static var appleProtectedMPEG4Audio: UTType { constant("com.apple.protected-mpeg-4-audio") }
    /// `com.apple.protected-mpeg-4-video`: An Apple-protected MPEG-4 movie.
    public static var appleProtectedMPEG4Video: UTType { constant("com.apple.protected-mpeg-4-video") }
    /// `public.avi`: An AVI movie.
    public static var avi: UTType { constant("public.avi") }
    /// `public.aiff-audio`: AIFF audio.
    public static var aiff: UTType { constant("public.aiff-audio") }
    /// `com.microsoft.waveform-audio`: Waveform (WAV) audio.
    public static var wav: UTType { constant("com.microsoft.waveform-audio") }
    /// `public.midi-audio`: MIDI audio.
    public static var midi: UTType { constant("public.midi-audio") }
    /// `public.playlist`: The base type of playlists.
    public static var playlist: UTType { constant("public.playlist") }
    /// `public.m3u-playlist`: An M3U or M3U8 playlist.
    public static var m3uPlaylist: UTType { constant("public.m3u-playlist") }
    /// `public.folder`: A folder a person browses into.
    public static var folder: UTType { constant("public.folder") }
    /// `public.volume`: The root folder of a volume.
    public static var volume: UTType { constant("public.volume") }
    /// `com.apple.package`: The base type of directories shown as one item.
    public static var package: UTType { constant("com.apple.package") }
    /// `com.apple.bundle`: The base type of directories in one of the bundle layouts.
    public static var bundle: UTType { constant("com.apple.bundle") }
    /// `com.apple.plugin`: The base type of bundle-based plug-ins.
    public static var pluginBundle: UTType { constant("com.apple.plugin") }
    /// `com.apple.metadata-importer`: A Spotlight metadata importer.
    public static var spotlightImporter: UTType { constant("com.apple.metadata-importer") }
    /// `com.apple.quicklook-generator`: A Quick Look preview generator.
    public static var quickLookGenerator: UTType { constant("com.apple.quicklook-generator") }
    /// `com.apple.xpc-service`: An XPC service bundle.
    public static var xpcService: UTType { constant("com.apple.xpc-service") }
    /// `com.apple.framework`: A framework bundle.
    public static var framework: UTType { constant("com.apple.framework") }
    /// `com.apple.application`: The base type of apps.
    public static var application: UTType { constant("com.apple.application") }
    /// `com.apple.application-bundle`: An app bundle.
    public static var applicationBundle: UTType { constant("com.apple.application-bundle") }
    /// `com.apple.application-and-system-extension`: An app extension.
    public static var applicationExtension: UTType { constant("com.apple.application-and-system-extension") }
    /// `public.unix-executable`: A UNIX executable.
    public static var unixExecutable: UTType { constant("public.unix-executable") }
    /// `com.microsoft.windows-executable`: A Windows executable.
    public static var exe: UTType { constant("com.microsoft.windows-executable") }
    /// `com.apple.systempreference.prefpane`: A System Preferences pane.
    public static var systemPreferencesPane: UTType { constant("com.apple.systempreference.prefpane") }
    /// `public.archive`: The base type of archives of files and folders.
    public static var archive: UTType { constant("public.archive") }
    /// `org.gnu.gnu-zip-archive`: A gzip archive.
    public static var gzip: UTType { constant("org.gnu.gnu-zip-archive") }
    /// `public.bzip2-archive`: A bzip2 archive.
    public static var bz2: UTType { constant("public.bzip2-archive") }
    /// `public.zip-archive`: A zip archive.
    public static var zip: UTType { constant("public.zip-archive") }
    /// `com.apple.archive`: An Apple Archive.
    public static var appleArchive: UTType { constant("com.apple.archive") }
    /// `public.tar-archive`: A tar archive.
    public static var tarArchive: UTType { constant("public.tar-archive") }
    /// `public.spreadsheet`: The base type of spreadsheet documents.
    public static var spreadsheet: UTType { constant("public.spreadsheet") }
    /// `public.presentation`: The base type of presentation documents.
    public static var presentation: UTType { constant("public.presentation") }
    /// `public.database`: The base type of database stores.
    public static var database: UTType { constant("public.database") }
    /// `public.message`: The base type of messages.
    public static var message: UTType { constant("public.message") }
    /// `public.contact`: The base type of contact information.
    public static var contact: UTType { constant("public.contact") }
    /// `public.vcard`: A vCard.
    public static var vCard: UTType { constant("public.vcard") }
    /// `public.to-do-item`: A to-do item.
    public static var toDoItem: UTType { constant("public.to-do-item") }
    /// `public.calendar-event`: A calendar event.
    public static var calendarEvent: UTType { constant("public.calendar-event") }
    /// `public.email-message`: An email message.
    public static var emailMessage: UTType { constant("public.email-message") }
    /// `com.apple.internet-location`: The base type of Apple internet location files.
    public static var internetLocation: UTType { constant("com.apple.internet-location") }
    /// `com.microsoft.internet-shortcut`: A Windows internet shortcut.
    public static var internetShortcut: UTType { constant("com.microsoft.internet-shortcut") }
    /// `public.font`: The base type of fonts.
    public static var font: UTType { constant("public.font") }
    /// `public.bookmark`: The base type of bookmark data.
    public static var bookmark: UTType { constant("public.bookmark") }
    /// `com.rsa.pkcs-12`: PKCS #12 data.
    public static var pkcs12: UTType { constant("com.rsa.pkcs-12") }
    /// `public.x509-certificate`: An X.509 certificate.
    public static var x509Certificate: UTType { constant("public.x509-certificate") }
    /// `org.idpf.epub-container`: An EPUB publication.
    public static var epub: UTType { constant("org.idpf.epub-container") }
    /// `public.log`: The base type of console logs.
    public static var log: UTType { constant("public.log") }
    /// `com.apple.haptics.ahap`: An Apple Haptic and Audio Pattern.
    public static var ahap: UTType { constant("com.apple.haptics.ahap") }
    /// `public.geojson`: A GeoJSON file.
    public static var geoJSON: UTType { constant("public.geojson", fallbackParent: "public.data") }
    /// `com.apple.linkpresentation.metadata`: Serialized LinkPresentation metadata.
    public static var linkPresentationMetadata: UTType { constant("com.apple.linkpresentation.metadata", fallbackParent: "public.data") }
}

extension UTType {
    /// The identifiers of the constants: the types Apple codes in its keyed form.
    static let constantIdentifiers: Set<String> = [
        "public.item", "public.content", "public.composite-content", "public.disk-image", "public.data",
        "public.directory", "com.apple.resolvable", "public.symlink", "public.executable",
        "com.apple.mount-point", "com.apple.alias-file", "com.apple.bookmark", "public.url",
        "public.file-url", "public.text", "public.plain-text", "public.utf8-plain-text",
        "public.utf16-external-plain-text", "public.utf16-plain-text", "public.delimited-values-text",
        "public.comma-separated-values-text", "public.tab-separated-values-text",
        "public.utf8-tab-separated-values-text", "public.rtf", "public.html", "public.xml", "public.yaml",
        "public.css", "public.source-code", "public.assembly-source", "public.c-source",
        "public.objective-c-source", "public.swift-source", "public.c-plus-plus-source",
        "public.objective-c-plus-plus-source", "public.c-header", "public.c-plus-plus-header",
        "public.script", "com.apple.applescript.text", "com.apple.applescript.script",
        "com.apple.applescript.script-bundle", "com.netscape.javascript-source", "public.shell-script",
        "public.perl-script", "public.python-script", "public.ruby-script", "public.php-script",
        "public.make-source", "public.json", "com.apple.property-list", "com.apple.xml-property-list",
        "com.apple.binary-property-list", "com.adobe.pdf", "com.apple.rtfd", "com.apple.flat-rtfd",
        "com.apple.webarchive", "public.image", "public.jpeg", "public.tiff", "com.compuserve.gif",
        "public.png", "com.apple.icns", "com.microsoft.bmp", "com.microsoft.ico", "public.camera-raw-image",
        "public.svg-image", "com.apple.live-photo", "public.heif", "public.heic", "public.heics",
        "org.webmproject.webp", "com.ilm.openexr-image", "com.adobe.raw-image", "public.jpeg-xl",
        "public.3d-content", "com.pixar.universal-scene-description",
        "com.pixar.universal-scene-description-mobile", "com.apple.reality", "com.apple.scenekit.scene",
        "com.apple.arobject", "public.audiovisual-content", "public.movie", "public.video", "public.audio",
        "com.apple.quicktime-movie", "public.mpeg", "public.mpeg-2-video", "public.mpeg-2-transport-stream",
        "public.mp3", "public.mpeg-4", "public.mpeg-4-audio", "com.apple.protected-mpeg-4-audio",
        "com.apple.protected-mpeg-4-video", "public.avi", "public.aiff-audio",
        "com.microsoft.waveform-audio", "public.midi-audio", "public.playlist", "public.m3u-playlist",
        "public.folder", "public.volume", "com.apple.package", "com.apple.bundle", "com.apple.plugin",
        "com.apple.metadata-importer", "com.apple.quicklook-generator", "com.apple.xpc-service",
        "com.apple.framework", "com.apple.application", "com.apple.application-bundle",
        "com.apple.application-and-system-extension", "public.unix-executable",
        "com.microsoft.windows-executable", "com.apple.systempreference.prefpane", "public.archive",
        "org.gnu.gnu-zip-archive", "public.bzip2-archive", "public.zip-archive", "com.apple.archive",
        "public.tar-archive", "public.spreadsheet", "public.presentation", "public.database",
        "public.message", "public.contact", "public.vcard", "public.to-do-item", "public.calendar-event",
        "public.email-message", "com.apple.internet-location", "com.microsoft.internet-shortcut",
        "public.font", "public.bookmark", "com.rsa.pkcs-12", "public.x509-certificate",
        "org.idpf.epub-container", "public.log", "com.apple.haptics.ahap", "public.geojson",
        "com.apple.linkpresentation.metadata"
    ]

    /// A constant's type: the default registry's type of `identifier`, or, when the catalog in use
    /// lacks it, a type of that identifier conforming to `fallbackParent` (or to `public.data`).
    static func constant(_ identifier: String, fallbackParent: String? = nil) -> UTType {
        let registry = DefaultTypeRegistry.current
        if let type = UTType(identifier, in: registry) { return type }
        return UTType(exportedAs: identifier, conformingTo: fallbackParent.map { constant($0) }, in: registry)
    }
}
