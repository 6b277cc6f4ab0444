/// Which of several declarations claiming one tag (a filename extension, a MIME type) answers it,
/// and so the order `UTType.types(tag:…)` lists them in. The one rule both the registry compiler
/// and the shared-mime-info import follow; docs/catalog.md ("Shared tags") explains it with the
/// macOS answers behind each step.
public enum TagClaimOrder {
    /// Whether `a`, declared at position `i`, answers before `b`, declared at `j`:
    /// 1. system over exported over imported;
    /// 2. among system types, CoreTypes' before those Apple's other bundles declare (macOS 13 answers
    ///    `pic` with CoreTypes' `com.apple.pict`, not ImageIO's `public.radiance`, whose preferred
    ///    extension it is);
    /// 3. public types first (`xml` is `public.xml`, not Word's XML format, both CoreTypes');
    /// 4. declaration order: catalog files in name order, each top to bottom, then the shared MIME
    ///    database's types, then apps by bundle identifier.
    ///
    /// Being a type's first (preferred) tag counts for nothing: `mpkg` is
    /// `com.apple.installer-package-archive` (its second tag) over the metapackage (its first).
    public static func precedes(_ a: TypeDeclaration, at i: Int, _ b: TypeDeclaration, at j: Int) -> Bool {
        if a.kind != b.kind { return a.kind > b.kind }
        if a.isCoreType != b.isCoreType { return a.isCoreType }
        let publicA = a.normalizedIdentifier.hasPrefix("public."), publicB = b.normalizedIdentifier.hasPrefix("public.")
        if publicA != publicB { return publicA }
        return i < j
    }
}
