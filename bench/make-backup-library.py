#!/usr/bin/env python3
"""Writes an unpacked yarn backup (a directory `yarn backup restore` reads) for the benchmarks.

usage: make-backup-library.py OUT_DIR [N_YARNS] [N_PHOTOS] [PHOTO_BYTES]
       make-backup-library.py --realistic OUT_DIR [N_YARNS]

The first form (bench/backup.sh): N_YARNS yarns (default 100,000) with realistic fields and
N_PHOTOS incompressible photos of PHOTO_BYTES each (default 300 of 1 MiB; random bytes, named
.jpg, so stored), one photo on each of the first yarns; no projects, notes or sessions.

--realistic (bench/backup-realistic.sh): a library as a busy knitter's, N_YARNS yarns
(default 3,000), 800 projects (usages of 1-4 yarns each), 4,000 notes (on yarns and projects),
30,000 finished time sessions, and 460 attachments of about 1 GiB in all: 300 yarn photos and
100 project photos (JPEG-named, 1-4 MiB, most near 2 MiB) and 60 pattern PDFs (0.2-8 MiB, most
small). The bytes are random (as incompressible as JPEG) from a seeded PRNG, so every run
writes the same attachments; the items are seeded too. The counts of projects, notes,
sessions and attachments do not change with N_YARNS.
"""
import datetime
import hashlib
import json
import math
import os
import random
import sys
import uuid

MiB = 1 << 20

args = sys.argv[1:]
realistic = "--realistic" in args
if realistic:
    args.remove("--realistic")
out = args[0]
if realistic:
    n_yarns = int(args[1]) if len(args) > 1 else 3_000
    n_projects, n_notes, n_sessions = 800, 4_000, 30_000
    n_yarn_photos, n_project_photos, n_pdfs = 300, 100, 60
else:
    n_yarns = int(args[1]) if len(args) > 1 else 100_000
    n_projects = n_notes = n_sessions = n_project_photos = n_pdfs = 0
    n_yarn_photos = int(args[2]) if len(args) > 2 else 300
    photo_bytes = int(args[3]) if len(args) > 3 else MiB

rng = random.Random(20260329)        # the items
byte_rng = random.Random(20261129)   # the attachments' bytes (realistic mode)
os.makedirs(os.path.join(out, "attachments"), exist_ok=True)


def new_id():
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def attachment(file_name, media_type, size):
    """Writes `size` incompressible bytes to attachments/<sha256>; returns the Attachment."""
    data = byte_rng.randbytes(size) if realistic else os.urandom(size)
    digest = hashlib.sha256(data).hexdigest()
    with open(os.path.join(out, "attachments", digest), "wb") as f:
        f.write(data)
    return {"byteCount": size, "fileName": file_name, "mediaType": media_type, "sha256": digest}


def photo_size():
    # Phone photos: 1-4 MiB, most near 2 MiB (mean about 2.3 MiB).
    return int(rng.triangular(1, 4, 2) * MiB) if realistic else photo_bytes


def pdf_size():
    # Pattern PDFs: 0.2-8 MiB, log-uniform (most are a few pages; a few are whole books).
    return int(math.exp(rng.uniform(math.log(0.2), math.log(8))) * MiB)


def day(start_year=2010):
    return f"{rng.randint(start_year, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def instant(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


brands = ["Cascade Yarns", "Malabrigo", "Drops", "Rowan", "Sandnes Garn", "Knit Picks",
          "Lana Grossa", "Rauma", "Hedgehog Fibres", "Brooklyn Tweed"]
colors = ["Ruby", "Teal", "Ochre", "Fog", "Moss", "Indigo", "Rust", "Oatmeal", "Plum"]
fibers = ["100% Peruvian Highland Wool", "75% wool, 25% nylon", "100% cotton",
          "50% alpaca, 50% merino", "100% superwash merino"]
words = ("knit purl cast on bind off gauge swatch blocked ribbing cable lace yoke sleeve "
         "short rows ease frogged again too loose too tight lovely soft scratchy bloomed "
         "after washing dye lot differs needs two more skeins").split()


def sentence(n_words):
    return " ".join(rng.choice(words) for _ in range(n_words)).capitalize() + "."


# Yarns. In the first form the photos go one each on the first yarns; in the realistic form
# 300 photos on random yarns, one to three each.
yarns = []
for i in range(n_yarns):
    yarns.append({
        "id": new_id(),
        "name": f"{rng.choice(brands)} {rng.choice(['220', 'Worsted', 'Sock', 'Alpaca'])} #{i}",
        "brand": rng.choice(brands),
        "colorway": rng.choice(colors),
        "fiber": rng.choice(fibers),
        "weight": rng.randint(0, 7),
        "lengthPerSkein": {"unit": "yd", "value": rng.choice([220, 437, 150, 90])},
        "netWeightPerSkein": {"unit": "g", "value": rng.choice([50, 100, 115])},
        "quantity": {"unit": "skein", "value": rng.randint(1, 12)},
        "dateAdded": day(),
        "purchaseLocation": "Loop, London",
        "isStashed": True,
        "photos": [],
    })
if realistic:
    owners = [rng.randrange(n_yarns) for _ in range(n_yarn_photos)]
else:
    owners = list(range(min(n_yarns, n_yarn_photos)))
for k, i in enumerate(owners):
    yarns[i]["photos"].append(attachment(f"photo-{k:04d}.jpg", "image/jpeg", photo_size()))

# Projects: usages of 1-4 yarns; 60 with a pattern PDF, 100 photos spread over them.
statuses = ["planned", "in-progress", "finished", "finished", "finished", "frogged",
            "hibernating"]
crafts = ["knitting"] * 6 + ["crochet", "weaving", "spinning", "embroidery", "other"]
projects = []
for i in range(n_projects):
    status = rng.choice(statuses)
    started = None if status == "planned" else day(2015)
    finished = None
    if status == "finished":
        finished = max(started, day(2015))  # same format, so compared as strings
    project = {
        "id": new_id(),
        "name": f"{rng.choice(['Flax', 'Hitchhiker', 'Ranunculus', 'Sock', 'Cowl', 'Blanket'])}"
                f" {i}",
        "craft": rng.choice(crafts),
        "status": status,
        "usages": [{"yarnID": rng.choice(yarns)["id"],
                    "amount": rng.choice([{"unit": "g", "value": rng.randint(20, 600)},
                                          {"unit": "skein", "value": rng.randint(1, 6)}])}
                   for _ in range(rng.randint(1, 4))],
        "photos": [],
    }
    if started:
        project["started"] = started
    if finished:
        project["finished"] = finished
    if rng.random() < 0.5:
        project["pattern"] = {"name": f"Pattern {i}",
                              "url": f"https://www.ravelry.com/patterns/library/p-{i}"}
    projects.append(project)
for k, i in enumerate(rng.sample(range(n_projects), n_pdfs)):
    pattern = projects[i].setdefault("pattern", {"name": f"Pattern {i}"})
    pattern["pdf"] = attachment(f"pattern-{k:03d}.pdf", "application/pdf", pdf_size())
for k in range(n_project_photos):
    projects[rng.randrange(n_projects)]["photos"].append(
        attachment(f"project-{k:04d}.jpg", "image/jpeg", photo_size()))

# Notes: 60% on yarns, 40% on projects.
epoch = datetime.datetime(2015, 1, 1, tzinfo=datetime.timezone.utc)
notes = []
for i in range(n_notes):
    created = epoch + datetime.timedelta(seconds=rng.randrange(11 * 365 * 86400))
    modified = created + datetime.timedelta(seconds=rng.choice([0, 0, rng.randrange(86400 * 90)]))
    note = {"id": new_id(), "text": sentence(rng.randint(4, 60)),
            "created": instant(created), "modified": instant(modified)}
    if n_projects == 0 or rng.random() < 0.6:
        note["yarnID"] = rng.choice(yarns)["id"]
    else:
        note["projectID"] = rng.choice(projects)["id"]
    notes.append(note)

# Time sessions: 10-180 minutes each, one after another (as recorded), all finished; on the
# projects that were started; one in ten with a note.
worked = [p["id"] for p in projects if p["status"] != "planned"]
sessions = []
moment = epoch
for i in range(n_sessions):
    moment += datetime.timedelta(minutes=rng.randint(60, 240))
    session = {"id": new_id(), "projectID": rng.choice(worked), "start": instant(moment),
               "end": instant(moment + datetime.timedelta(minutes=rng.randint(10, 180)))}
    if rng.random() < 0.1:
        session["note"] = sentence(rng.randint(2, 12))
    sessions.append(session)

library = {"notes": notes, "projects": projects, "sessions": sessions, "yarns": yarns}
data = json.dumps(library, indent=2, sort_keys=True, ensure_ascii=False).encode()
with open(os.path.join(out, "library.json"), "wb") as f:
    f.write(data)

# The manifest: library.json, then each attachment in the library's order (each yarn's photos,
# then each project's pattern PDF and photos).
attachments = [p for y in yarns for p in y["photos"]]
for p in projects:
    attachments += ([p["pattern"]["pdf"]] if "pdf" in p.get("pattern", {}) else []) + p["photos"]
files = [{"path": "library.json", "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}]
files += [{"path": "attachments/" + a["sha256"], "sha256": a["sha256"], "size": a["byteCount"]}
          for a in attachments]
manifest = {
    "counts": {"attachments": len(attachments), "notes": len(notes), "projects": len(projects),
               "sessions": len(sessions), "yarns": len(yarns)},
    "createdAt": "2026-03-29T12:00:00Z", "files": files, "format": "yarn-backup",
    "formatVersion": 1, "generator": "bench/make-backup-library.py",
}
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=2, sort_keys=True)
total = sum(a["byteCount"] for a in attachments)
print(f"{out}: {len(yarns)} yarns, {len(projects)} projects, {len(notes)} notes, "
      f"{len(sessions)} sessions, {len(attachments)} attachments of {total / MiB:.0f} MiB, "
      f"library.json {len(data)} bytes", file=sys.stderr)
