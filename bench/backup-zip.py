#!/usr/bin/env python3
"""Python's zipfile over the files of an unpacked backup, as `yarn backup create` writes them:
the attachments stored (they are JPEGs), the JSON deflated (zlib's default level, 6).

usage: backup-zip.py DIR OUT.zip
"""
import os
import sys
import zipfile

src, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w") as archive:
    for name in ["manifest.json", "library.json"]:
        archive.write(os.path.join(src, name), name, compress_type=zipfile.ZIP_DEFLATED)
    folder = os.path.join(src, "attachments")
    for name in sorted(os.listdir(folder)):
        archive.write(os.path.join(folder, name), "attachments/" + name,
                      compress_type=zipfile.ZIP_STORED)
