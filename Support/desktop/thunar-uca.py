#!/usr/bin/env python3
"""Adds (or replaces) Thunar's custom actions "Open In…" and "Send to Nearby Device…" in uca.xml,
keeping the user's own actions.

thunar-uca.py UCA_XML OPENIN_PATH. Thunar reads $XDG_CONFIG_HOME/Thunar/uca.xml, a list of
<action> elements each with a <unique-id>; ours are org.document-interchange.openin and
org.document-interchange.nearby. The file is
written to a temporary name and renamed into place. A uca.xml that is not well-formed XML is left
alone and reported (exit 1): it is the user's, and guessing would lose their actions.
"""
import os
import shlex
import sys
import tempfile
import xml.etree.ElementTree as ET

# Per action: unique id, icon, name, openin's options, description.
ACTIONS = [
    ("org.document-interchange.openin", "document-open", "Open In…", "--dialog", "Choose an app or an activity for these files"),
    ("org.document-interchange.nearby", "network-wireless", "Send to Nearby Device…", "--nearby --dialog",
     "Send these files into an app on a paired nearby device"),
]


def action(openin: str, unique_id: str, icon: str, name: str, options: str, description: str) -> ET.Element:
    element = ET.Element("action")
    fields = [("icon", icon), ("name", name), ("submenu", ""), ("unique-id", unique_id),
              # Thunar expands %F into the selected paths, each quoted, then parses the line as a shell would.
              ("command", shlex.quote(openin) + " " + options + " %F"),
              ("description", description), ("range", ""), ("patterns", "*")]
    for tag, text in fields:
        ET.SubElement(element, tag).text = text
    for kind in ("audio-files", "image-files", "other-files", "text-files", "video-files"):
        ET.SubElement(element, kind)
    return element


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: thunar-uca.py UCA_XML OPENIN_PATH", file=sys.stderr)
        return 2
    path, openin = sys.argv[1], sys.argv[2]
    if os.path.exists(path):
        try:
            tree = ET.parse(path)
        except ET.ParseError as error:
            print(f"install: {path} is not well-formed XML ({error}); Thunar's actions were not added", file=sys.stderr)
            return 1
        root = tree.getroot()
        if root.tag != "actions":
            print(f"install: {path} has <{root.tag}>, not <actions>; Thunar's actions were not added", file=sys.stderr)
            return 1
    else:
        root = ET.Element("actions")
        tree = ET.ElementTree(root)
    ours = {unique_id for unique_id, *_ in ACTIONS}
    for old in [a for a in root.findall("action") if (a.findtext("unique-id") or "") in ours]:
        root.remove(old)
    for fields in ACTIONS:
        root.append(action(openin, *fields))
    ET.indent(tree)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".uca.xml.")
    with os.fdopen(descriptor, "wb") as out:
        tree.write(out, encoding="UTF-8", xml_declaration=True)
        out.write(b"\n")
    os.replace(temporary, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
