#!/usr/bin/env python3
"""Writes an unpacked yarn backup (a directory `yarn backup restore` reads) for the benchmark:
N_PHOTOS incompressible photos of PHOTO_BYTES each (random bytes, named .jpg, so stored) and
N_YARNS yarns with realistic fields, the photos spread over the first yarns.

usage: make-backup-library.py OUT_DIR [N_YARNS] [N_PHOTOS] [PHOTO_BYTES]
"""
import hashlib
import json
import os
import random
import sys
import uuid

out = sys.argv[1]
n_yarns = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
n_photos = int(sys.argv[3]) if len(sys.argv) > 3 else 300
photo_bytes = int(sys.argv[4]) if len(sys.argv) > 4 else 1 << 20

rng = random.Random(20260329)
os.makedirs(os.path.join(out, "attachments"), exist_ok=True)

photos = []
for i in range(n_photos):
    data = os.urandom(photo_bytes)
    digest = hashlib.sha256(data).hexdigest()
    with open(os.path.join(out, "attachments", digest), "wb") as f:
        f.write(data)
    photos.append({"byteCount": len(data), "fileName": f"photo-{i:04d}.jpg",
                   "mediaType": "image/jpeg", "sha256": digest})

brands = ["Cascade Yarns", "Malabrigo", "Drops", "Rowan", "Sandnes Garn", "Knit Picks",
          "Lana Grossa", "Rauma", "Hedgehog Fibres", "Brooklyn Tweed"]
colors = ["Ruby", "Teal", "Ochre", "Fog", "Moss", "Indigo", "Rust", "Oatmeal", "Plum"]
fibers = ["100% Peruvian Highland Wool", "75% wool, 25% nylon", "100% cotton",
          "50% alpaca, 50% merino", "100% superwash merino"]

yarns = []
for i in range(n_yarns):
    yarn = {
        "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "name": f"{rng.choice(brands)} {rng.choice(['220', 'Worsted', 'Sock', 'Alpaca'])} #{i}",
        "brand": rng.choice(brands),
        "colorway": rng.choice(colors),
        "fiber": rng.choice(fibers),
        "weight": rng.randint(0, 7),
        "lengthPerSkein": {"unit": "yd", "value": rng.choice([220, 437, 150, 90])},
        "netWeightPerSkein": {"unit": "g", "value": rng.choice([50, 100, 115])},
        "quantity": {"unit": "skein", "value": rng.randint(1, 12)},
        "dateAdded": f"20{rng.randint(10, 26):02d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "purchaseLocation": "Loop, London",
        "isStashed": True,
        "photos": [photos[i]] if i < n_photos else [],
    }
    yarns.append(yarn)

library = {"notes": [], "projects": [], "sessions": [], "yarns": yarns}
data = json.dumps(library, indent=2, sort_keys=True, ensure_ascii=False).encode()
with open(os.path.join(out, "library.json"), "wb") as f:
    f.write(data)

files = [{"path": "library.json", "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}]
files += [{"path": "attachments/" + p["sha256"], "sha256": p["sha256"], "size": p["byteCount"]}
          for p in photos]
manifest = {
    "counts": {"attachments": len(photos), "notes": 0, "projects": 0, "sessions": 0,
               "yarns": len(yarns)},
    "createdAt": "2026-03-29T12:00:00Z", "files": files, "format": "yarn-backup",
    "formatVersion": 1, "generator": "bench/make-backup-library.py",
}
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=2, sort_keys=True)
print(f"{out}: {n_yarns} yarns, {n_photos} photos of {photo_bytes} bytes, "
      f"library.json {len(data)} bytes", file=sys.stderr)
