#!/usr/bin/env python3
"""Refresh the shipped price snapshots (data/prices/) from a newer copy of
SkyPilot's catalog (issue 22).

Usage: python3 tools/refresh-prices.py CATALOG_DIR COMMIT READ_ON [CLOUD...]

CATALOG_DIR is a checkout (or download) of github.com/skypilot-org/skypilot-catalog,
COMMIT the commit it is at (40 hex digits), READ_ON the date the copy was taken
(YYYY-MM-DD). For each cloud of data/prices/provenance.csv (or only the CLOUDs
named), it reads CATALOG_DIR/catalogs/<v>/<cloud>/vms.csv (v7, or the version
its provenance row names: v8 for oci, hyperstack and verda, which SkyPilot
publishes only there) and keeps the header
and, in file order and unchanged, every row of an instance type that
data/skypilot-map.csv names (kind `instance`): the types it maps to an
offering and the types it lists with an empty offering and the reason (a
reseller's or auction price, kept so the snapshot still shows them and a
later map can use them; they price nothing), plus, for GCP,
the host rows of mapped types and the GPU-only rows (empty InstanceType) of the
accelerators the map pairs with them (kind `host_gpus`). It writes the new
data/prices/<cloud>/vms.csv files and provenance rows into a copy of data/ in
a temporary directory, runs data/check.py on that copy (it refuses a snapshot
whose AcceleratorCount contradicts the mapped offering, FILE:LINE: reason),
and only when it passes renames the new files into data/: all or nothing, a
refused or failed refresh leaves data/ as it was. Nothing is fetched from the
network: the copy is the caller's.
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROV = os.path.join(ROOT, "data", "prices", "provenance.csv")
MAP = os.path.join(ROOT, "data", "skypilot-map.csv")
COLS = "cloud,file,commit,read_on,source_url,rows_kept".split(",")


def mapped(cloud):
    """Instance types of `cloud` the map names (mapped to an offering or
    listed with an empty one), and GCP's paired accelerators."""
    types, accs = set(), set()
    with open(MAP, newline="") as f:
        for r in csv.DictReader(f):
            if not r["key"].startswith(cloud + "/"):
                continue
            t = r["key"].split("/", 1)[1]
            if r["kind"] == "instance":
                types.add(t)
            elif r["kind"] == "host_gpus":
                types.add(t)
                accs.add(r["value"])
    return types, accs


def excerpt(path, cloud):
    """The header and the rows to keep, as the file writes them."""
    types, accs = mapped(cloud)
    with open(path, newline="") as f:
        text = f.read()
    lines = text.splitlines(keepends=True)
    out, kept = [lines[0]], 0
    head = next(csv.reader([lines[0]]))
    it, ia, ic = head.index("InstanceType"), head.index("AcceleratorName"), head.index("AcceleratorCount")
    for line in lines[1:]:
        rec = next(csv.reader([line]))
        if len(rec) != len(head):
            continue
        pair = f"{rec[ia]}:{rec[ic].split('.')[0]}" if rec[ic] else ""
        if rec[it] in types or (not rec[it] and pair in accs):
            out.append(line)
            kept += 1
    return "".join(out), kept


def stage(tmp, src, commit, read_on, rows, clouds):
    """Writes each cloud's excerpt and the provenance file under tmp/data;
    returns (the rewritten paths relative to data/, or None on failure)."""
    written = []
    for cloud in clouds:
        # The catalog layout version a cloud's snapshot was read from (its
        # provenance source_url: catalogs/v7/... or, for oci, catalogs/v8/...).
        old = [r for r in rows if r["cloud"] == cloud]
        ver = re.search(r"/catalogs/(v\d+)/", old[0]["source_url"]) if old else None
        ver = ver.group(1) if ver else "v7"
        path = os.path.join(src, "catalogs", ver, cloud, "vms.csv")
        if not os.path.exists(path):
            print(f"{path}: not found; nothing in data/ changed", file=sys.stderr)
            return None
        text, kept = excerpt(path, cloud)
        rel = os.path.join("prices", cloud, "vms.csv")
        os.makedirs(os.path.join(tmp, "data", "prices", cloud), exist_ok=True)
        with open(os.path.join(tmp, "data", rel), "w", newline="") as f:
            f.write(text)
        written.append(rel)
        row = {"cloud": cloud, "file": f"data/prices/{cloud}/vms.csv", "commit": commit,
               "read_on": read_on,
               "source_url": f"https://github.com/skypilot-org/skypilot-catalog/blob/{commit}/catalogs/{ver}/{cloud}/vms.csv",
               "rows_kept": f"header and {kept} rows of the instance types the map names, unchanged, in file order"}
        rows = [r for r in rows if r["cloud"] != cloud] + [row]
        print(f"{cloud}: {kept} rows kept")
    buf = io.StringIO()
    w = csv.DictWriter(buf, COLS, lineterminator="\n")
    w.writeheader()
    for r in sorted(rows, key=lambda r: r["cloud"]):
        w.writerow({k: r.get(k, "") for k in COLS})
    with open(os.path.join(tmp, "data", "prices", "provenance.csv"), "w", newline="") as f:
        f.write(buf.getvalue())
    return written + [os.path.join("prices", "provenance.csv")]


def main(argv):
    if len(argv) < 4 or not re.fullmatch(r"[0-9a-f]{40}", argv[2]) or \
            not re.fullmatch(r"\d{4}-\d{2}-\d{2}", argv[3]):
        print(__doc__, file=sys.stderr)
        return 2
    src, commit, read_on = argv[1], argv[2], argv[3]
    with open(PROV, newline="") as f:
        rows = list(csv.DictReader(f))
    clouds = argv[4:] or [r["cloud"] for r in rows]
    data = os.path.join(ROOT, "data")
    # In the repository, so that the renames below stay on one file system.
    tmp = tempfile.mkdtemp(prefix=".refresh-prices-", dir=ROOT)
    try:
        shutil.copytree(data, os.path.join(tmp, "data"))
        written = stage(tmp, src, commit, read_on, rows, clouds)
        if written is None:
            return 1
        rc = subprocess.call([sys.executable, os.path.join(data, "check.py"), "--quiet",
                              os.path.join(tmp, "data")])
        if rc != 0:
            print("refresh refused by data/check.py; nothing in data/ changed", file=sys.stderr)
            return rc
        for rel in written:  # checked: now into place, the provenance last
            os.makedirs(os.path.dirname(os.path.join(data, rel)), exist_ok=True)
            os.replace(os.path.join(tmp, "data", rel), os.path.join(data, rel))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main(sys.argv))
