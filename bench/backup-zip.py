#!/usr/bin/env python3
"""Python's zipfile over the files of an unpacked backup, as `yarn backup create` writes them:
the attachments stored (they are JPEGs), the JSON deflated (zlib's default level, 6).

usage: backup-zip.py DIR OUT.zip [--stored] [--fsync]

--stored: every entry stored (ZIP_STORED), the JSON too (bench/backup-realistic.sh).
--fsync:  then fsync the archive and its directory, as yarn does before it reports success.
"""
import os
import sys
import zipfile

src, out = sys.argv[1], sys.argv[2]
json_method = zipfile.ZIP_STORED if "--stored" in sys.argv[3:] else zipfile.ZIP_DEFLATED
with zipfile.ZipFile(out, "w") as archive:
    for name in ["manifest.json", "library.json"]:
        archive.write(os.path.join(src, name), name, compress_type=json_method)
    folder = os.path.join(src, "attachments")
    for name in sorted(os.listdir(folder)):
        archive.write(os.path.join(folder, name), "attachments/" + name,
                      compress_type=zipfile.ZIP_STORED)
if "--fsync" in sys.argv[3:]:
    fd = os.open(out, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
    fd = os.open(os.path.dirname(os.path.abspath(out)), os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
