/// The system calls this package makes, by name: what an error says it was doing, and what a
/// test can make fail (``FaultInjection``).
public enum SystemCall: String, Sendable, Hashable, CaseIterable {
    case open, close, read, write, fstat, stat, lstat, fsync, fchmod, futimens, ftruncate
    case renameat2, renameat, linkat, unlinkat, mkdir, symlink, readlink, getdents, getcwd
    case mmap, lease, flock, inotify, poll, signalfd, spawn, waitpid, pipe, terminal, eventfd
    case futex, thread, mutex, socket, bind, send, receive, kill, realpath, fcntl, xattr, statvfs
    case setsockopt, getifaddrs, interfaceIndex, syncFileRange, listen, accept, connect, shutdown

    /// What the call does, for error messages ("cannot *flush* /a/b").
    public var action: String {
        switch self {
        case .open: "open"
        case .close: "close"
        case .read: "read"
        case .write: "write"
        case .fstat, .stat, .lstat: "look at"
        case .statvfs: "measure the free space of"
        case .fsync: "flush"
        case .fchmod: "set the mode of"
        case .futimens: "set the times of"
        case .ftruncate: "truncate"
        case .renameat2, .renameat: "rename"
        case .linkat: "link"
        case .unlinkat: "remove"
        case .mkdir: "create the folder"
        case .symlink: "create the link"
        case .readlink: "read the link"
        case .getdents: "list"
        case .getcwd: "find the working folder"
        case .mmap: "map"
        case .lease: "check for writers of"
        case .flock: "lock"
        case .inotify: "watch"
        case .poll: "wait for"
        case .signalfd: "receive signals"
        case .spawn: "start"
        case .waitpid: "wait for"
        case .pipe: "create a pipe for"
        case .terminal: "set up the terminal"
        case .eventfd: "create an event counter"
        case .futex: "wait for a change of"
        case .mutex: "lock"
        case .socket: "create a socket for"
        case .bind: "bind the socket"
        case .send: "send to"
        case .receive: "receive on"
        case .thread: "start a thread for"
        case .kill: "signal"
        case .realpath: "resolve"
        case .fcntl: "set the flags of"
        case .xattr: "set an extended attribute of"
        case .setsockopt: "set an option of"
        case .getifaddrs: "list the network interfaces"
        case .interfaceIndex: "find the network interface"
        case .syncFileRange: "start writing out"
        case .listen: "listen on"
        case .accept: "accept a connection on"
        case .connect: "connect to"
        case .shutdown: "shut down"
        }
    }
}
