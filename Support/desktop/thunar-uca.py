#!/usr/bin/env python3
"""Adds (or replaces) Thunar's custom action "Open In…" in uca.xml, keeping the user's own actions.

thunar-uca.py UCA_XML OPENIN_PATH. Thunar reads $XDG_CONFIG_HOME/Thunar/uca.xml, a list of
<action> elements each with a <unique-id>; ours is org.document-interchange.openin. The file is
written to a temporary name and renamed into place. A uca.xml that is not well-formed XML is left
alone and reported (exit 1): it is the user's, and guessing would lose their actions.
"""
import os
import shlex
import sys
import tempfile
import xml.etree.ElementTree as ET

UNIQUE_ID = "org.document-interchange.openin"


def action(openin: str) -> ET.Element:
    element = ET.Element("action")
    fields = [("icon", "document-open"), ("name", "Open In…"), ("submenu", ""), ("unique-id", UNIQUE_ID),
              # Thunar expands %F into the selected paths, each quoted, then parses the line as a shell would.
              ("command", shlex.quote(openin) + " --dialog %F"),
              ("description", "Choose an app or an activity for these files"), ("range", ""), ("patterns", "*")]
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
            print(f"install: {path} is not well-formed XML ({error}); Thunar's action was not added", file=sys.stderr)
            return 1
        root = tree.getroot()
        if root.tag != "actions":
            print(f"install: {path} has <{root.tag}>, not <actions>; Thunar's action was not added", file=sys.stderr)
            return 1
    else:
        root = ET.Element("actions")
        tree = ET.ElementTree(root)
    for old in [a for a in root.findall("action") if (a.findtext("unique-id") or "") == UNIQUE_ID]:
        root.remove(old)
    root.append(action(openin))
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
