// `inboxd`: a thin shell over the Receiver library (docs/receiver.md).
import AppRegistry
import Handlers
import LogfmtLogging
import Logging
import PropertyLists
import Receiver
import ToolSupport
import UniformTypes

ToolMain.run(inboxdSpec, options: InboxdOption.self, verbs: InboxdVerb.self) { command in
    var options = DeviceReceiver.Options(root: DeviceRoot.resolve(explicit: command[.root]))
    options.app = command[.app]
    options.workingFolder = command[.workingFolder]
    options.senders = SenderAllowList(command.all(.allowSender))
    if let limit = command[.maxSize].flatMap(Int64.init) { options.sizeLimit = limit }
    if let seconds = command[.rescan].flatMap(Double.init) { options.rescanInterval = seconds }
    if options.workingFolder != nil && options.app == nil {
        Output.error("inboxd: --working-folder needs --app (each app has its own)")
        return 2
    }
    let verb = command.verb ?? .once
    let level = command[.logLevel].flatMap(Logger.Level.init(rawValue:)) ?? (verb == .run ? .info : .warning)
    LoggingSystem.bootstrap { _ in LogfmtHandler(level: level) }
    let logger = Logger(label: "inboxd")
    let receiver: DeviceReceiver
    do { receiver = try DeviceReceiver(options, logger: logger) } catch {
        Output.error("inboxd: \(error)")
        return 2
    }
    let json = command.flag(.json)
    do {
        switch verb {
        case .run:
            try InboxWatcher(receiver: receiver) { app, outcomes in
                InboxdReport.log(app, outcomes, logger: logger)
            }.run()
            logger.info("stopped")
        case .once:
            let into = options.workingFolder.map { $0 + "/" } ?? "Documents/"
            for pass in try receiver.passOnce() {
                InboxdReport.log(pass.app, pass.outcomes, logger: logger)
                InboxdReport.print(pass.app, pass.outcomes, into: into)
            }
        case .status:
            let apps = try receiver.status()
            if json { Output.line(InboxdReport.json(.array(apps.map(InboxdReport.statusValue)))) }
            else { for app in apps { Output.line(InboxdReport.statusLine(app)) } }
        case .history:
            let apps = try receiver.history()
            if json {
                Output.line(InboxdReport.json(.array(apps.flatMap { app in app.entries.map { InboxdReport.historyValue(app.app, $0) } })))
            } else {
                for app in apps { for entry in app.entries { Output.line(InboxdReport.historyLine(app.app, entry)) } }
            }
        case .recover:
            let apps = try receiver.recover()
            if json {
                Output.line(InboxdReport.json(.array(apps.map { .dictionary(["app": .string($0.app), "unfinished": .integer(Int64($0.unfinished))]) })))
            } else {
                for app in apps { Output.line("\(app.app): \(app.unfinished) moves left unfinished (owned by running receivers)") }
            }
        }
    } catch {
        Output.error("inboxd: \(error)")
        return 2
    }
    return 0
}
