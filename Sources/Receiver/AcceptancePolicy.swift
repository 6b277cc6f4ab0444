import AppRegistry
import Handlers
import OpenRequests
import SystemCalls
import UniformTypes

/// A document about to be judged: its Inbox name, the descriptor it was opened as (judge that,
/// never the path, which may have changed since) and its open request, if any.
public struct ArrivingDocument {
    /// The Inbox name (bytes: it need not be UTF-8).
    public var name: [UInt8]
    /// The open file.
    let file: OwnedDescriptor
    /// The request that came with it.
    public var request: OpenRequest?

    /// Calls `body` with the open descriptor (read it with `pread`: the offset is shared).
    public func withDescriptor<R>(_ body: (Int32) -> R) -> R { file.withRaw(body) }
}

/// The app's rule for what its receiver accepts, beyond the checks every file passes (regular,
/// one link, within the size limit, from an allowed sender).
public struct AcceptancePolicy: Sendable {
    /// Judges one document.
    public var judge: @Sendable (ArrivingDocument) -> Judgement

    /// A policy from a function.
    public init(judge: @escaping @Sendable (ArrivingDocument) -> Judgement) { self.judge = judge }

    /// Accepts everything, recording each document's type as `registry` judges it (an app that
    /// is not registered declares nothing to judge by).
    public static func typesOnly(registry: TypeRegistry) -> AcceptancePolicy {
        AcceptancePolicy { document in
            Judgement(type: type(of: document, in: registry).identifier)
        }
    }

    /// The app's declared rule: a document delivered to the app itself must be of a type the app
    /// opens through its `CFBundleDocumentTypes`, as the chooser decides eligibility; one
    /// delivered through one of the app's share extensions (the request's `Activity`) must be
    /// taken by that extension's activation rule, as the sheet offered it.
    public static func declared(by app: AppBundle, registry: TypeRegistry) -> AcceptancePolicy {
        let index = HandlerIndex(bundles: [app], registry: registry)
        return AcceptancePolicy { document in
            let type = type(of: document, in: registry)
            if let activity = document.request?.activity, let share = app.shareExtensions.first(where: { $0.activityType == activity }) {
                let verdict = share.accepts([type], in: registry)
                return Judgement(type: type.identifier,
                                 refusal: verdict.accepted ? nil : "\(share.name) (\(activity)) does not take \(type.identifier): \(verdict.reason)")
            }
            let shown = DisplayName.of(document.name)
            let eligible = !HandlerRanking(registry: registry).rank(type: type, fileName: shown, index: index).isEmpty
            return Judgement(type: type.identifier, refusal: eligible ? nil : "its type \(type.identifier) is not one \(app.name) opens")
        }
    }

    /// The document's type: by name, then by content read from the open descriptor. A name that
    /// is not UTF-8 keeps its extension when the bytes after the last dot are.
    static func type(of document: ArrivingDocument, in registry: TypeRegistry) -> UTType {
        let shown = String(decoding: document.name, as: UTF8.self)
        return document.withDescriptor { FileTypeDetector(registry: registry).type(ofFileNamed: shown, openAs: $0).type }
    }
}
