/// Correspondences between freedesktop.org MIME types and Apple's types that the tags alone do not
/// show, each checked by hand against both databases (shared-mime-info 2.4, the `UTIs/` catalog).
///
/// A MIME type or an alias of it that is one of a declared type's MIME tags always becomes that
/// type; these lists cover the rest. Sharing a filename extension is not enough: `*.key` is both a
/// Keynote presentation and a PGP key file, `*.smi` both a disk image and a SMIL presentation. An extension decides a correspondence only
/// when it is listed in ``sameFormat``.
enum ReviewedCorrespondences {
    /// MIME type (lower-cased) → Apple identifier: the same format under two names. The Apple type
    /// takes the MIME type, its aliases, globs and magic; its own conformance is left alone.
    static let sameFormat: [String: String] = [
        // The roots of both systems.
        "application/octet-stream": "public.data",
        "inode/directory": "public.folder",
        "inode/symlink": "public.symlink",
        "inode/mount-point": "public.volume",
        "application/x-executable": "public.unix-executable",
        // Formats both databases describe, found by a shared extension and checked by their specifications.
        "application/illustrator": "com.adobe.illustrator.ai-image",
        "application/msword-template": "com.microsoft.word.dot",
        "application/pkix-cert": "public.x509-certificate",
        "application/vnd.chess-pgn": "com.apple.chess.pgn",
        "application/vnd.iccprofile": "com.apple.colorsync-profile",
        "application/vnd.ms-cab-compressed": "com.microsoft.cab",
        "application/x-apple-diskimage": "com.apple.disk-image-udif",
        "application/x-apple-systemprofiler+xml": "com.apple.systemprofiler.document",
        "application/x-bzip2-compressed-tar": "public.tar-bzip2-archive",
        "application/x-compressed-tar": "org.gnu.gnu-zip-tar-archive",
        "application/x-cpio": "public.cpio-archive",
        "application/x-java": "com.sun.java-class",
        "application/x-mswinurl": "com.microsoft.internet-shortcut",
        "application/x-object": "public.object-code",
        "application/x-perl": "public.perl-script",
        "application/x-php": "public.php-script",
        "application/x-ruby": "public.ruby-script",
        "application/x-xar": "com.apple.xar-archive",
        "application/x-xz-compressed-tar": "org.tukaani.tar-xz-archive",
        "audio/mp2": "public.mp2",
        "audio/x-aifc": "public.aifc-audio",
        "audio/x-ms-wma": "com.microsoft.windows-media-wma",
        "font/collection": "public.truetype-collection-font",
        "image/astc": "org.khronos.astc",
        "image/ktx": "org.khronos.ktx",
        "image/vnd.fpx": "com.kodak.flashpix-image",
        "image/vnd.ms-dds": "com.microsoft.dds",
        "image/vnd.radiance": "public.radiance",
        "image/x-canon-cr2": "com.canon.cr2-raw-image",
        "image/x-canon-cr3": "com.canon.cr3-raw-image",
        "image/x-eps": "com.adobe.encapsulated-postscript",
        "image/x-exr": "com.ilm.openexr-image",
        "image/x-fuji-raf": "com.fuji.raw-image",
        "image/x-hasselblad-3fr": "com.hasselblad.3fr-raw-image",
        "image/x-hasselblad-fff": "com.hasselblad.fff-raw-image",
        "image/x-icns": "com.apple.icns",
        "image/x-kodak-dcr": "com.kodak.raw-image",
        "image/x-leaf-mos": "com.leafamerica.raw-image",
        "image/x-macpaint": "com.apple.macpaint-image",
        "image/x-minolta-mrw": "com.konicaminolta.raw-image",
        "image/x-nikon-nef": "com.nikon.raw-image",
        "image/x-olympus-orf": "com.olympus.raw-image",
        "image/x-panasonic-rw": "com.panasonic.raw-image",
        "image/x-panasonic-rw2": "com.panasonic.rw2-raw-image",
        "image/x-pentax-pef": "com.pentax.raw-image",
        "image/x-phaseone-iiq": "com.phaseone.raw-image",
        "image/x-samsung-srw": "com.samsung.raw-image",
        "image/x-sgi": "com.sgi.sgi-image",
        "image/x-sony-arw": "com.sony.arw-raw-image",
        "image/x-sony-srf": "com.sony.raw-image",
        "model/obj": "public.geometry-definition-format",
        "model/stl": "public.standard-tesselated-geometry-format",
        "text/x-adasrc": "public.ada-source",
        "text/x-asm": "public.assembly-source",
        "text/x-c++hdr": "public.c-plus-plus-header",
        "text/x-c++src": "public.c-plus-plus-source",
        "text/x-chdr": "public.c-header",
        "text/x-csh": "public.csh-script",
        "text/x-csrc": "public.c-source",
        "text/x-fortran": "public.fortran-source",
        "text/x-java": "com.sun.java-source",
        "text/x-log": "com.apple.log",
        "text/x-makefile": "public.make-source",
        "text/x-objc++src": "public.objective-c-plus-plus-source",
        "text/x-objcsrc": "public.objective-c-source",
        "text/x-pascal": "public.pascal-source",
        "text/x-patch": "public.patch-file",
        "text/x-python": "public.python-script",
        "text/x-shellscript": "public.shell-script",
        "video/dv": "public.dv-movie",
        "video/mp2t": "public.mpeg-2-transport-stream",
        "video/x-flic": "public.flc-animation",
    ]

    /// Extensions two different formats share where the shared MIME database knows only one, with
    /// the Apple type that also claims the name: a file with such a name is judged by its content
    /// between the two (the database alone would always answer its own type, so an old disk image
    /// would be a SMIL presentation). `*.key` needs no entry: the database lists both Keynote and
    /// PGP keys for it.
    static let sharedExtensions: [(extension: String, identifier: String)] = [
        ("smi", "com.apple.disk-image-smi"),
    ]
}
