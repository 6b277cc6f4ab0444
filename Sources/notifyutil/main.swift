// `notifyutil`: a thin shell over the Notifications library (docs/notifications.md).
import Notifications
import ToolSupport

ToolMain.run(notifyutilSpec, options: NotifyutilOption.self, verbs: NoVerbs.self) { command in
    NotifyutilRun(command: command).run()
}
