/// The text `plutil -help` prints.
let usage = """
    plutil: [command_option] [other_options] file...
    The file '-' means standard input.
    Command options (-lint is the default):
     -help                         show this message and exit
     -lint                         check the property list files for syntax errors
     -p                            print a property list in a human-readable form (not stable)
     -convert fmt                  rewrite property list files in format fmt: xml1, binary1, json
     -insert keypath -type value   insert a value at keypath; -append adds to the array at keypath
     -replace keypath -type value  set the value at keypath, adding it if absent
     -remove keypath               remove the value at keypath
     -extract keypath fmt          write the value at keypath as a plist of format fmt
                                   (xml1, binary1, json or raw); -expect type checks its type
     -type keypath                 print the type of the value at keypath
     -create fmt                   create an empty property list of format fmt
     -unarchive                    read files as NSKeyedArchiver archives: the other commands see $top
                                   with references resolved and each $class as its name; alone, it
                                   prints that as XML (-convert fmt -o path to write it elsewhere)

    Key paths separate keys with '.'; a number indexes an array; '\\.' is a literal dot.
    Value types: -bool YES|NO|true|false (any case), -integer N (decimal or 0x hex), -float N, -string S,
    -date YYYY-MM-DDTHH:MM:SSZ, -data BASE64, -xml PLIST, -json JSON, -dictionary, -array.

    Other options:
     -s            be silent on success
     -o path       write the result to path ('-' is standard output)
     -e extension  use this extension for converted files
     -r            with json, write indented
     -n            with raw, do not print a terminating newline
     --            all further arguments are file names

    Formats read: XML, binary (bplist00), OpenStep/.strings text and JSON, chosen by the first
    bytes; -lint checks property lists only, not JSON (as Apple's plutil). JSON has no date,
    data or UID: converting such values to json fails and names them.
    Exit status: 0 on success, 1 if any file failed or the command line is wrong.

    Examples:
      plutil -lint App/Info.plist
      plutil -convert binary1 -o Info.bin App/Info.plist
      plutil -extract CFBundleDocumentTypes.0.LSItemContentTypes json -o - App/Info.plist
      plutil -insert CFBundleDocumentTypes.0.LSHandlerRank -string Owner App/Info.plist
      plutil -unarchive -convert json -r -o - package.archive

    """
