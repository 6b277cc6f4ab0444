import UniformTypes

// Apple's 140 UTType constants (UTCoreTypes.h; Apple's "System-declared uniform type identifiers"
// page for the Swift names), each the type of the same identifier in the default registry. The
// descriptions are ours. A catalog that lacks a constant's type still answers it, as a type of
// that identifier that is not declared: three of these are newer than UTIs/ (public.jpeg-xl,
// public.geojson, com.apple.linkpresentation.metadata); they keep the parent Apple documents, or
// public.data where it documents none (the conformance Apple assumes of an exported type).

extension UTType {
    /// `public.item`: The base type of most things in a file system: files, folders, packages.
    public static var item: UTType { constant(0) }
    /// `public.content`: The base type of anything with content a person can view: documents, pasteboard
    /// data, document packages.
    public static var content: UTType { constant(1) }
    /// `public.composite-content`: The base type of formats that embed content of several kinds (PDF,
    /// RTFD).
    public static var compositeContent: UTType { constant(2) }
    /// `public.disk-image`: Data that can be mounted as a volume.
    public static var diskImage: UTType { constant(3) }
    /// `public.data`: The base type of every byte stream: files and in-memory data.
    public static var data: UTType { constant(4) }
    /// `public.directory`: A file system directory: folders and packages.
    public static var directory: UTType { constant(5) }
    /// `com.apple.resolvable`: The base type of references to other items: symbolic links and aliases.
    public static var resolvable: UTType { constant(6) }
    /// `public.symlink`: A symbolic link.
    public static var symbolicLink: UTType { constant(7) }
    /// `public.executable`: The base type of executables.
    public static var executable: UTType { constant(8) }
    /// `com.apple.mount-point`: A volume's mount point.
    public static var mountPoint: UTType { constant(9) }
    /// `com.apple.alias-file`: A Finder alias file.
    public static var aliasFile: UTType { constant(10) }
    /// `com.apple.bookmark`: URL bookmark data.
    public static var urlBookmarkData: UTType { constant(11) }
    /// `public.url`: A URL.
    public static var url: UTType { constant(12) }
    /// `public.file-url`: A URL that names a file.
    public static var fileURL: UTType { constant(13) }
    /// `public.text`: The base type of text, with or without markup.
    public static var text: UTType { constant(14) }
    /// `public.plain-text`: Text without markup, in an unspecified encoding.
    public static var plainText: UTType { constant(15) }
    /// `public.utf8-plain-text`: Plain text in UTF-8.
    public static var utf8PlainText: UTType { constant(16) }
    /// `public.utf16-external-plain-text`: Plain text in UTF-16 with an optional byte order mark.
    public static var utf16ExternalPlainText: UTType { constant(17) }
    /// `public.utf16-plain-text`: Plain text in UTF-16 in the native byte order, with an optional byte
    /// order mark.
    public static var utf16PlainText: UTType { constant(18) }
    /// `public.delimited-values-text`: The base type of text holding values separated by a delimiter.
    public static var delimitedText: UTType { constant(19) }
    /// `public.comma-separated-values-text`: Comma-separated values (CSV).
    public static var commaSeparatedText: UTType { constant(20) }
    /// `public.tab-separated-values-text`: Tab-separated values.
    public static var tabSeparatedText: UTType { constant(21) }
    /// `public.utf8-tab-separated-values-text`: Tab-separated values in UTF-8.
    public static var utf8TabSeparatedText: UTType { constant(22) }
    /// `public.rtf`: Rich Text Format.
    public static var rtf: UTType { constant(23) }
    /// `public.html`: HTML, any version.
    public static var html: UTType { constant(24) }
    /// `public.xml`: XML.
    public static var xml: UTType { constant(25) }
    /// `public.yaml`: YAML.
    public static var yaml: UTType { constant(26) }
    /// `public.css`: Cascading Style Sheets.
    public static var css: UTType { constant(27) }
    /// `public.source-code`: The base type of source code in any language.
    public static var sourceCode: UTType { constant(28) }
    /// `public.assembly-source`: Assembly language source.
    public static var assemblyLanguageSource: UTType { constant(29) }
    /// `public.c-source`: C source.
    public static var cSource: UTType { constant(30) }
    /// `public.objective-c-source`: Objective-C source.
    public static var objectiveCSource: UTType { constant(31) }
    /// `public.swift-source`: Swift source.
    public static var swiftSource: UTType { constant(32) }
    /// `public.c-plus-plus-source`: C++ source.
    public static var cPlusPlusSource: UTType { constant(33) }
    /// `public.objective-c-plus-plus-source`: Objective-C++ source.
    public static var objectiveCPlusPlusSource: UTType { constant(34) }
    /// `public.c-header`: A C header.
    public static var cHeader: UTType { constant(35) }
    /// `public.c-plus-plus-header`: A C++ header.
    public static var cPlusPlusHeader: UTType { constant(36) }
    /// `public.script`: The base type of scripts in any language.
    public static var script: UTType { constant(37) }
    /// `com.apple.applescript.text`: An AppleScript script as text.
    public static var appleScript: UTType { constant(38) }
    /// `com.apple.applescript.script`: A compiled Open Scripting Architecture script.
    public static var osaScript: UTType { constant(39) }
    /// `com.apple.applescript.script-bundle`: An Open Scripting Architecture script bundle.
    public static var osaScriptBundle: UTType { constant(40) }
    /// `com.netscape.javascript-source`: JavaScript source.
    public static var javaScript: UTType { constant(41) }
    /// `public.shell-script`: The base type of shell scripts.
    public static var shellScript: UTType { constant(42) }
    /// `public.perl-script`: A Perl script.
    public static var perlScript: UTType { constant(43) }
    /// `public.python-script`: A Python script.
    public static var pythonScript: UTType { constant(44) }
    /// `public.ruby-script`: A Ruby script.
    public static var rubyScript: UTType { constant(45) }
    /// `public.php-script`: A PHP script.
    public static var phpScript: UTType { constant(46) }
    /// `public.make-source`: A makefile.
    public static var makefile: UTType { constant(47) }
    /// `public.json`: JSON.
    public static var json: UTType { constant(48) }
    /// `com.apple.property-list`: The base type of property lists.
    public static var propertyList: UTType { constant(49) }
    /// `com.apple.xml-property-list`: A property list in XML.
    public static var xmlPropertyList: UTType { constant(50) }
    /// `com.apple.binary-property-list`: A property list in the binary format.
    public static var binaryPropertyList: UTType { constant(51) }
    /// `com.adobe.pdf`: A PDF document.
    public static var pdf: UTType { constant(52) }
    /// `com.apple.rtfd`: A Rich Text Format Directory (a package).
    public static var rtfd: UTType { constant(53) }
    /// `com.apple.flat-rtfd`: A Rich Text Format Directory flattened into one file.
    public static var flatRTFD: UTType { constant(54) }
    /// `com.apple.webarchive`: A WebKit web archive.
    public static var webArchive: UTType { constant(55) }
    /// `public.image`: The base type of images.
    public static var image: UTType { constant(56) }
    /// `public.jpeg`: A JPEG image.
    public static var jpeg: UTType { constant(57) }
    /// `public.tiff`: A TIFF image.
    public static var tiff: UTType { constant(58) }
    /// `com.compuserve.gif`: A GIF image.
    public static var gif: UTType { constant(59) }
    /// `public.png`: A PNG image.
    public static var png: UTType { constant(60) }
    /// `com.apple.icns`: An Apple icon image.
    public static var icns: UTType { constant(61) }
    /// `com.microsoft.bmp`: A Windows bitmap image.
    public static var bmp: UTType { constant(62) }
    /// `com.microsoft.ico`: A Windows icon image.
    public static var ico: UTType { constant(63) }
    /// `public.camera-raw-image`: The base type of camera raw images.
    public static var rawImage: UTType { constant(64) }
    /// `public.svg-image`: A Scalable Vector Graphics image.
    public static var svg: UTType { constant(65) }
    /// `com.apple.live-photo`: A Live Photo.
    public static var livePhoto: UTType { constant(66) }
    /// `public.heif`: A High Efficiency Image File Format image.
    public static var heif: UTType { constant(67) }
    /// `public.heic`: A High Efficiency Image Coding image.
    public static var heic: UTType { constant(68) }
    /// `public.heics`: A High Efficiency Image Coding image sequence.
    public static var heics: UTType { constant(69) }
    /// `org.webmproject.webp`: A WebP image.
    public static var webP: UTType { constant(70) }
    /// `com.ilm.openexr-image`: An OpenEXR image.
    public static var exr: UTType { constant(71) }
    /// `com.adobe.raw-image`: An Adobe Digital Negative image.
    public static var dng: UTType { constant(72) }
    /// `public.jpeg-xl`: A JPEG XL image.
    public static var jpegxl: UTType { constant(73) }
    /// `public.3d-content`: The base type of 3D content.
    public static var threeDContent: UTType { constant(74) }
    /// `com.pixar.universal-scene-description`: Universal Scene Description content.
    public static var usd: UTType { constant(75) }
    /// `com.pixar.universal-scene-description-mobile`: A Universal Scene Description package.
    public static var usdz: UTType { constant(76) }
    /// `com.apple.reality`: A Reality Composer file.
    public static var realityFile: UTType { constant(77) }
    /// `com.apple.scenekit.scene`: A serialized SceneKit scene.
    public static var sceneKitScene: UTType { constant(78) }
    /// `com.apple.arobject`: An augmented-reality reference object.
    public static var arReferenceObject: UTType { constant(79) }
    /// `public.audiovisual-content`: The base type of audio and video.
    public static var audiovisualContent: UTType { constant(80) }
    /// `public.movie`: The base type of media that may hold both video and audio.
    public static var movie: UTType { constant(81) }
    /// `public.video`: Video without audio.
    public static var video: UTType { constant(82) }
    /// `public.audio`: Audio without video.
    public static var audio: UTType { constant(83) }
    /// `com.apple.quicktime-movie`: A QuickTime movie.
    public static var quickTimeMovie: UTType { constant(84) }
    /// `public.mpeg`: An MPEG-1 or MPEG-2 movie.
    public static var mpeg: UTType { constant(85) }
    /// `public.mpeg-2-video`: MPEG-2 video.
    public static var mpeg2Video: UTType { constant(86) }
    /// `public.mpeg-2-transport-stream`: An MPEG-2 transport stream.
    public static var mpeg2TransportStream: UTType { constant(87) }
    /// `public.mp3`: MP3 audio.
    public static var mp3: UTType { constant(88) }
    /// `public.mpeg-4`: An MPEG-4 movie.
    public static var mpeg4Movie: UTType { constant(89) }
    /// `public.mpeg-4-audio`: MPEG-4 audio.
    public static var mpeg4Audio: UTType { constant(90) }
    /// `com.apple.protected-mpeg-4-audio`: Apple-protected MPEG-4 audio.
    public static var appleProtectedMPEG4Audio: UTType { constant(91) }
    /// `com.apple.protected-mpeg-4-video`: An Apple-protected MPEG-4 movie.
    public static var appleProtectedMPEG4Video: UTType { constant(92) }
    /// `public.avi`: An AVI movie.
    public static var avi: UTType { constant(93) }
    /// `public.aiff-audio`: AIFF audio.
    public static var aiff: UTType { constant(94) }
    /// `com.microsoft.waveform-audio`: Waveform (WAV) audio.
    public static var wav: UTType { constant(95) }
    /// `public.midi-audio`: MIDI audio.
    public static var midi: UTType { constant(96) }
    /// `public.playlist`: The base type of playlists.
    public static var playlist: UTType { constant(97) }
    /// `public.m3u-playlist`: An M3U or M3U8 playlist.
    public static var m3uPlaylist: UTType { constant(98) }
    /// `public.folder`: A folder a person browses into.
    public static var folder: UTType { constant(99) }
    /// `public.volume`: The root folder of a volume.
    public static var volume: UTType { constant(100) }
    /// `com.apple.package`: The base type of directories shown as one item.
    public static var package: UTType { constant(101) }
    /// `com.apple.bundle`: The base type of directories in one of the bundle layouts.
    public static var bundle: UTType { constant(102) }
    /// `com.apple.plugin`: The base type of bundle-based plug-ins.
    public static var pluginBundle: UTType { constant(103) }
    /// `com.apple.metadata-importer`: A Spotlight metadata importer.
    public static var spotlightImporter: UTType { constant(104) }
    /// `com.apple.quicklook-generator`: A Quick Look preview generator.
    public static var quickLookGenerator: UTType { constant(105) }
    /// `com.apple.xpc-service`: An XPC service bundle.
    public static var xpcService: UTType { constant(106) }
    /// `com.apple.framework`: A framework bundle.
    public static var framework: UTType { constant(107) }
    /// `com.apple.application`: The base type of apps.
    public static var application: UTType { constant(108) }
    /// `com.apple.application-bundle`: An app bundle.
    public static var applicationBundle: UTType { constant(109) }
    /// `com.apple.application-and-system-extension`: An app extension.
    public static var applicationExtension: UTType { constant(110) }
    /// `public.unix-executable`: A UNIX executable.
    public static var unixExecutable: UTType { constant(111) }
    /// `com.microsoft.windows-executable`: A Windows executable.
    public static var exe: UTType { constant(112) }
    /// `com.apple.systempreference.prefpane`: A System Preferences pane.
    public static var systemPreferencesPane: UTType { constant(113) }
    /// `public.archive`: The base type of archives of files and folders.
    public static var archive: UTType { constant(114) }
    /// `org.gnu.gnu-zip-archive`: A gzip archive.
    public static var gzip: UTType { constant(115) }
    /// `public.bzip2-archive`: A bzip2 archive.
    public static var bz2: UTType { constant(116) }
    /// `public.zip-archive`: A zip archive.
    public static var zip: UTType { constant(117) }
    /// `com.apple.archive`: An Apple Archive.
    public static var appleArchive: UTType { constant(118) }
    /// `public.tar-archive`: A tar archive.
    public static var tarArchive: UTType { constant(119) }
    /// `public.spreadsheet`: The base type of spreadsheet documents.
    public static var spreadsheet: UTType { constant(120) }
    /// `public.presentation`: The base type of presentation documents.
    public static var presentation: UTType { constant(121) }
    /// `public.database`: The base type of database stores.
    public static var database: UTType { constant(122) }
    /// `public.message`: The base type of messages.
    public static var message: UTType { constant(123) }
    /// `public.contact`: The base type of contact information.
    public static var contact: UTType { constant(124) }
    /// `public.vcard`: A vCard.
    public static var vCard: UTType { constant(125) }
    /// `public.to-do-item`: A to-do item.
    public static var toDoItem: UTType { constant(126) }
    /// `public.calendar-event`: A calendar event.
    public static var calendarEvent: UTType { constant(127) }
    /// `public.email-message`: An email message.
    public static var emailMessage: UTType { constant(128) }
    /// `com.apple.internet-location`: The base type of Apple internet location files.
    public static var internetLocation: UTType { constant(129) }
    /// `com.microsoft.internet-shortcut`: A Windows internet shortcut.
    public static var internetShortcut: UTType { constant(130) }
    /// `public.font`: The base type of fonts.
    public static var font: UTType { constant(131) }
    /// `public.bookmark`: The base type of bookmark data.
    public static var bookmark: UTType { constant(132) }
    /// `com.rsa.pkcs-12`: PKCS #12 data.
    public static var pkcs12: UTType { constant(133) }
    /// `public.x509-certificate`: An X.509 certificate.
    public static var x509Certificate: UTType { constant(134) }
    /// `org.idpf.epub-container`: An EPUB publication.
    public static var epub: UTType { constant(135) }
    /// `public.log`: The base type of console logs.
    public static var log: UTType { constant(136) }
    /// `com.apple.haptics.ahap`: An Apple Haptic and Audio Pattern.
    public static var ahap: UTType { constant(137) }
    /// `public.geojson`: A GeoJSON file.
    public static var geoJSON: UTType { constant(138) }
    /// `com.apple.linkpresentation.metadata`: Serialized LinkPresentation metadata.
    public static var linkPresentationMetadata: UTType { constant(139) }
}
