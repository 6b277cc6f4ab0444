import ToolSupport

/// `nearby`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `nearby --check-names` checks it against ``nearbySpec``.
enum NearbyOption: String, OptionName {
    case root = "--root"
    case json = "--json"
    case name = "--name"
    case to = "--to"
    case app = "--app"
    case from = "--from"
    case fingerprint = "--fingerprint"
    case mode = "--mode"
    case minutes = "--minutes"
    case askTimeout = "--ask-timeout"
    case asksPerMinute = "--asks-per-minute"
    case autoAccept = "--auto-accept"
    case listen = "--listen"
    case port = "--port"
    case downloads = "--downloads"
    case noLaunch = "--no-launch"
    case rotate = "--rotate"
    case showCode = "--show-code"
    case wait = "--wait"
    case code = "--code"
    case noDiscovery = "--no-discovery"
    case interface = "--interface"
    case timeout = "--timeout"
    case localSend = "--localsend"
    case localSendPort = "--localsend-port"
    case localSendPin = "--localsend-pin"
    case newCertificate = "--new-certificate"
    case airDrop = "--airdrop"
    case airDropPort = "--airdrop-port"
    case watch = "--watch"
    case type = "--type"
    case process = "--process"
    case madeCurrent = "--made-current"
}

/// `nearby`'s verbs (``ToolSupport/VerbName``): switched over exhaustively.
enum NearbyVerb: String, VerbName {
    case identity
    case list
    case status
    case send
    case receive
    case pair
    case unpair
    case activities
    case `continue`
    case streams
}

/// `nearby`'s command line, read through its names.
typealias NearbyCommand = ToolCommand<NearbyOption, NearbyVerb>
