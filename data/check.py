#!/usr/bin/env python3
"""Validate the shipped catalog CSVs (data/offerings.csv, data/gpus.csv).

Checks every rule the C loader enforces (see ../docs/catalog-data.md and DESIGN.md
sections 2 and 3): exact header, column count, enums, numbers, sets, unique ids,
non-empty source_url and as_of, UTF-8, no empty lines. An empty gpu cell
is accepted (unknown model); a non-empty one must name a row of gpus.csv. Prints counts and the number
of unknown (empty) cells per column. Exit status 0 when the files are valid, 1 when not.

Usage: python3 data/check.py [--quiet] [DATA_DIR]
"""
import csv
import datetime
import io
import os
import re
import sys

OFFERING_COLS = (
    "id,provider,offering,gpu,gpus_per_node,gpu_memory_gb,intra_link,network,"
    "network_gbps_per_node,nics_per_node,rdma,gpudirect_rdma,topology,non_blocking,"
    "rail_optimized,max_cluster_gpus,orchestration,provisioning,min_commitment_h,"
    "billing_increment_s,price_on_demand_gpu_hr,price_reserved_gpu_hr,currency,"
    "shared_storage,regions,multinode,notes,source_url,as_of,in_network_reduction,"
    "price_spot_gpu_hr,price_as_of"
).split(",")
GPU_COLS = (
    "gpu,vendor,memory_gb,hbm_GBps,bf16_dense_tflops,fp16_dense_tflops,"
    "fp8_dense_tflops,nvlink_GBps_per_gpu,pcie_gen,host_c2c,gpus_per_node,intra_link,"
    "device_names,source_url,as_of"
).split(",")

# DESIGN.md section 2: the accepted GPU names; gpus.csv must have a row for each
# and may add more.
BASE_GPUS = (
    "V100-PCIe V100-SXM2 A100-PCIe A100-SXM-40 A100-SXM-80 H100-PCIe H100-SXM "
    "H100-NVL H200-SXM H20 H800 GH200 B200 B300 GB200 GB300 L40S L4 A10G T4 "
    "RTX-4090 MI250X MI300X MI325X MI355X"
).split()
INTRA = {"none", "pcie3", "pcie4", "pcie5", "nvlink-bridge", "nvlink2",
         "nvswitch-nvlink3", "nvswitch-nvlink4", "nvswitch-nvlink5", "nvl72", "xgmi"}
NETWORK = {"ib", "roce", "efa", "tcpx", "tcpxo", "tcp", "rdma", "none"}
YESNO = {"yes", "no"}
SETS = {
    "orchestration": {"slurm", "kubernetes", "vm", "managed"},
    "provisioning": {"on-demand", "spot", "reserved", "waitlist", "flex"},
    "shared_storage": {"lustre", "weka", "vast", "gpfs", "nfs", "object", "none"},
}
ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
NUM_RE = re.compile(r"^[0-9]+(\.[0-9]+)?$")
INT_RE = re.compile(r"^[0-9]+$")
CUR_RE = re.compile(r"^[A-Z]{3}$")
URL_RE = re.compile(r"^https?://[^\s;]+$")
REGION_RE = re.compile(r"^[A-Za-z0-9._()/-]+$")


def valid_date(s):
    for fmt in ("%Y-%m-%d", "%Y-%m"):
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}" if fmt == "%Y-%m-%d" else r"\d{4}-\d{2}", s):
            try:
                datetime.datetime.strptime(s, fmt)
                return True
            except ValueError:
                return False
    return False


class Checker:
    def __init__(self):
        self.errors = []

    def err(self, path, line, col, msg):
        self.errors.append(f"{path}:{line}:{col}: {msg}")

    def read(self, path, cols):
        """Read a CSV strictly; return list of (line_number, dict)."""
        raw = open(path, "rb").read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            self.err(path, 1, 1, f"not UTF-8 ({e})")
            return []
        if text.startswith("\ufeff"):
            self.err(path, 1, 1, "byte-order mark not allowed")
        if "\r" in text:
            self.err(path, 1, 1, "CR characters not allowed (use LF line endings)")
        if not text.endswith("\n"):
            self.err(path, 1, 1, "file must end with a newline")
        rows = []
        reader = csv.reader(io.StringIO(text, newline=""))
        for rec in reader:
            line = reader.line_num
            if not rec or all(f == "" for f in rec) and len(rec) <= 1:
                self.err(path, line, 1, "empty line")
                continue
            rows.append((line, rec))
        if not rows:
            self.err(path, 1, 1, "no header")
            return []
        line, header = rows[0]
        if header != cols:
            self.err(path, line, 1, f"header must be exactly: {','.join(cols)}")
            return []
        out = []
        for line, rec in rows[1:]:
            if len(rec) != len(cols):
                self.err(path, line, 1, f"expected {len(cols)} columns, found {len(rec)}")
                continue
            for i, v in enumerate(rec):
                if "\n" in v or "\r" in v:
                    self.err(path, line, i + 1, f"{cols[i]}: newline inside a field")
                if v != v.strip():
                    self.err(path, line, i + 1, f"{cols[i]}: leading/trailing whitespace")
            out.append((line, dict(zip(cols, rec))))
        return out

    def check_sources(self, path, line, cols, r):
        c = cols.index("source_url") + 1
        s = r["source_url"]
        if not s:
            self.err(path, line, c, "source_url: required")
        else:
            for u in s.split("; "):
                if not URL_RE.match(u):
                    self.err(path, line, c, f"source_url: '{u}' is not an http(s) URL (separate URLs with '; ')")
        c = cols.index("as_of") + 1
        if not r["as_of"]:
            self.err(path, line, c, "as_of: required (YYYY-MM or YYYY-MM-DD)")
        elif not valid_date(r["as_of"]):
            self.err(path, line, c, f"as_of: '{r['as_of']}' is not YYYY-MM or YYYY-MM-DD")

    def gpus(self, path):
        rows = self.read(path, GPU_COLS)
        names = {}
        devices = {}
        for line, r in rows:
            col = lambda k: GPU_COLS.index(k) + 1
            g = r["gpu"]
            if not re.fullmatch(r"[A-Za-z0-9]+(-[A-Za-z0-9]+)*", g):
                self.err(path, line, 1, f"gpu: '{g}' must be letters, digits and single hyphens")
            if g in names:
                self.err(path, line, 1, f"gpu: duplicate '{g}' (first on line {names[g]})")
            names[g] = line
            if r["vendor"] not in ("NVIDIA", "AMD", "Intel"):
                self.err(path, line, col("vendor"), "vendor: expected NVIDIA, AMD or Intel")
            if not INT_RE.match(r["memory_gb"]):
                self.err(path, line, col("memory_gb"), "memory_gb: expected an integer (GB)")
            for k in ("hbm_GBps", "bf16_dense_tflops", "fp16_dense_tflops", "fp8_dense_tflops", "nvlink_GBps_per_gpu"):
                if r[k] and not NUM_RE.match(r[k]):
                    self.err(path, line, col(k), f"{k}: expected a number or empty")
            if r["pcie_gen"] and r["pcie_gen"] not in ("3", "4", "5", "6"):
                self.err(path, line, col("pcie_gen"), "pcie_gen: expected 3, 4, 5, 6 or empty")
            # Required by the C loader (lib/model/gpus.c): the model, `fit` and the audit use them.
            if r["host_c2c"] not in ("0", "1"):
                self.err(path, line, col("host_c2c"), "host_c2c: expected 0 or 1")
            if not INT_RE.match(r["gpus_per_node"]) or not 1 <= int(r["gpus_per_node"]) <= 1024:
                self.err(path, line, col("gpus_per_node"), "gpus_per_node: expected an integer 1-1024")
            if r["intra_link"] not in INTRA:
                self.err(path, line, col("intra_link"), f"intra_link: expected one of {', '.join(sorted(INTRA))}")
            for d in r["device_names"].split("|") if r["device_names"] else []:
                if not d or d != d.strip():
                    self.err(path, line, col("device_names"), "device_names: empty or padded entry (separate with '|')")
                elif d in devices:
                    self.err(path, line, col("device_names"), f"device_names: '{d}' also on line {devices[d]}")
                else:
                    devices[d] = line
            self.check_sources(path, line, GPU_COLS, r)
        for g in BASE_GPUS:
            if g not in names:
                self.err(path, 1, 1, f"gpu: missing row for '{g}' (DESIGN.md section 2)")
        return {r["gpu"]: r for _, r in rows}

    def offerings(self, path, gpus):
        rows = self.read(path, OFFERING_COLS)
        ids = {}
        for line, r in rows:
            col = lambda k: OFFERING_COLS.index(k) + 1
            i = r["id"]
            if not ID_RE.match(i):
                self.err(path, line, 1, f"id: '{i}' must match [a-z0-9-]+ (no leading, trailing or double hyphen)")
            if i in ids:
                self.err(path, line, 1, f"id: duplicate '{i}' (first on line {ids[i]})")
            ids[i] = line
            for k in ("provider", "offering"):
                if not r[k]:
                    self.err(path, line, col(k), f"{k}: required")
            # An empty gpu means unknown: the source does not state the model exactly
            # (e.g. "H100" without SXM/PCIe/NVL); what it does say goes in notes.
            if r["gpu"] and r["gpu"] not in gpus:
                self.err(path, line, col("gpu"), f"gpu: '{r['gpu']}' not in gpus.csv (accepted: {', '.join(sorted(gpus))}, or empty for unknown)")
            for k in ("gpus_per_node", "gpu_memory_gb", "nics_per_node", "max_cluster_gpus", "billing_increment_s"):
                if r[k] and not INT_RE.match(r[k]):
                    self.err(path, line, col(k), f"{k}: expected an integer or empty, found '{r[k]}'")
                elif r[k] and int(r[k]) == 0 and k != "nics_per_node":
                    self.err(path, line, col(k), f"{k}: must be positive")
            for k in ("network_gbps_per_node", "min_commitment_h", "price_on_demand_gpu_hr", "price_reserved_gpu_hr",
                      "price_spot_gpu_hr"):
                if r[k] and not NUM_RE.match(r[k]):
                    self.err(path, line, col(k), f"{k}: expected a plain number or empty, found '{r[k]}'")
            if r["intra_link"] and r["intra_link"] not in INTRA:
                self.err(path, line, col("intra_link"), f"intra_link: '{r['intra_link']}' not one of {', '.join(sorted(INTRA))}")
            if r["network"] and r["network"] not in NETWORK:
                self.err(path, line, col("network"), f"network: '{r['network']}' not one of {', '.join(sorted(NETWORK))}")
            for k in ("rdma", "gpudirect_rdma", "non_blocking", "rail_optimized", "multinode",
                      "in_network_reduction"):
                if r[k] and r[k] not in YESNO:
                    self.err(path, line, col(k), f"{k}: expected yes, no or empty, found '{r[k]}'")
            for k, allowed in SETS.items():
                if r[k]:
                    parts = r[k].split(";")
                    if len(parts) != len(set(parts)):
                        self.err(path, line, col(k), f"{k}: duplicate element")
                    for p in parts:
                        if p not in allowed:
                            self.err(path, line, col(k), f"{k}: '{p}' not one of {', '.join(sorted(allowed))} (';'-separated, no spaces)")
            if r["regions"]:
                parts = r["regions"].split(";")
                if len(parts) != len(set(parts)):
                    self.err(path, line, col("regions"), "regions: duplicate element")
                for p in parts:
                    if not REGION_RE.match(p):
                        self.err(path, line, col("regions"), f"regions: '{p}' must be a code without spaces or commas")
            priced = r["price_on_demand_gpu_hr"] or r["price_reserved_gpu_hr"] or r["price_spot_gpu_hr"]
            if priced and not r["currency"]:
                self.err(path, line, col("currency"), "currency: required when a price is given")
            if r["price_as_of"] and not valid_date(r["price_as_of"]):
                self.err(path, line, col("price_as_of"), f"price_as_of: '{r['price_as_of']}' is not YYYY-MM or YYYY-MM-DD")
            elif r["price_as_of"] and not priced:
                self.err(path, line, col("price_as_of"), "price_as_of: given without a price")
            if r["currency"] and not CUR_RE.match(r["currency"]):
                self.err(path, line, col("currency"), "currency: expected an ISO 4217 code such as USD or EUR")
            if r["network"] == "none" and r["multinode"] == "yes":
                self.err(path, line, col("network"), "network: 'none' contradicts multinode=yes")
            if r["network"] in ("tcp", "tcpx", "tcpxo") and r["rdma"] == "yes":
                self.err(path, line, col("rdma"), "rdma: yes contradicts a non-RDMA network family")
            self.check_sources(path, line, OFFERING_COLS, r)
        return [r for _, r in rows]


    def price_map(self, path, gpus, offs):
        """data/skypilot-map.csv: kind,key,value,notes,source_url (lib/catalog/prices.c)."""
        cols = "kind,key,value,notes,source_url".split(",")
        ids = {r["id"] for r in offs}
        seen = {}
        for line, r in self.read(path, cols):
            k = (r["kind"], r["key"])
            if k in seen:
                self.err(path, line, 2, f"key: duplicate {r['kind']} '{r['key']}' (first on line {seen[k]})")
            seen[k] = line
            if r["kind"] == "cloud":
                if not re.fullmatch(r"[a-z0-9_-]+", r["key"]) or not r["value"]:
                    self.err(path, line, 2, "cloud: a lowercase SkyPilot cloud name and a provider name")
            elif r["kind"] == "accelerator":
                if r["value"] and r["value"] not in gpus:
                    self.err(path, line, 3, f"value: '{r['value']}' not in gpus.csv (empty = the name does not say the GPU)")
            elif r["kind"] == "instance":
                if "/" not in r["key"]:
                    self.err(path, line, 2, "key: expected CLOUD/INSTANCE_TYPE")
                # An empty value lists a type a snapshot keeps but maps to no
                # offering (a resale or auction price): its notes say why.
                if r["value"] and r["value"] not in ids:
                    self.err(path, line, 3, f"value: offering '{r['value']}' not in offerings.csv")
                if not r["value"] and not r["notes"]:
                    self.err(path, line, 4, "notes: an instance type mapped to no offering says why")
            elif r["kind"] == "host_gpus":
                # GCP host row + GPU-only row: CLOUD/TYPE -> ACCELERATOR:COUNT
                if "/" not in r["key"]:
                    self.err(path, line, 2, "key: expected CLOUD/INSTANCE_TYPE")
                if not re.fullmatch(r"[A-Za-z0-9_.-]+:[1-9][0-9]*", r["value"]):
                    self.err(path, line, 3, "value: expected ACCELERATOR:COUNT (e.g. H100:8)")
            elif r["kind"] == "gcp_machine":
                # gcp-catalog: TYPE -> ACCELERATOR:COUNT|GPU SKU|CORE SKU:VCPUS|RAM SKU:GIB
                parts = r["value"].split("|")
                ok = len(parts) == 4 and re.fullmatch(r"[A-Za-z0-9_.-]+:[1-9][0-9]*", parts[0]) \
                    and parts[1] and all(re.fullmatch(r"[^:|]+:[0-9]+(\.[0-9]+)?", p) for p in parts[2:])
                if not ok:
                    self.err(path, line, 3, "value: expected ACCELERATOR:COUNT|GPU SKU NAME|CORE SKU NAME:VCPUS|RAM SKU NAME:GIB")
            else:
                self.err(path, line, 1, "kind: expected cloud, accelerator, instance, host_gpus or gcp_machine")
            if not r["source_url"] or not URL_RE.match(r["source_url"]):
                self.err(path, line, 5, "source_url: required, one http(s) URL")
        return seen


PROVIDER_COLS = ("provider,multinode,orchestration,provisioning,rating_system,rating_tier,"
                 "rating_date,rating_source,notes,source_url,as_of").split(",")
PROV_SETS = {"orchestration": {"slurm", "kubernetes", "vm", "managed"},
             "provisioning": {"on-demand", "spot", "reserved", "waitlist", "flex", "sales-contact"}}
TIERS = {"Platinum", "Gold", "Silver", "Bronze", "Underperforming", "Not tested"}
# Six months, as lib/catalog/snapshots.c: a row's own price older than this
# before a snapshot was read gives way to the snapshot.
SNAPSHOT_OVERRIDE_DAYS = 183


def day(s):
    return datetime.date.fromisoformat(s + ("-01" if len(s) == 7 else ""))


def providers_table(ck, path, offs):
    """data/providers.csv (lib/catalog/provtable.c): one row per provider."""
    if not os.path.exists(path):
        return []
    rows = ck.read(path, PROVIDER_COLS)
    seen = {}
    for line, r in rows:
        col = lambda k: PROVIDER_COLS.index(k) + 1
        key = r["provider"].lower()
        if not r["provider"]:
            ck.err(path, line, 1, "provider: required")
        if key in seen:
            ck.err(path, line, 1, f"provider: duplicate '{r['provider']}' (first on line {seen[key]})")
        seen[key] = line
        if r["multinode"] and r["multinode"] not in YESNO:
            ck.err(path, line, col("multinode"), "multinode: expected yes, no or empty")
        for k, allowed in PROV_SETS.items():
            for p in filter(None, r[k].split(";")):
                if p not in allowed:
                    ck.err(path, line, col(k), f"{k}: '{p}' not one of {', '.join(sorted(allowed))}")
        if r["rating_tier"]:
            if r["rating_tier"] not in TIERS:
                ck.err(path, line, col("rating_tier"), f"rating_tier: not one of {', '.join(sorted(TIERS))}")
            if not r["rating_system"]:
                ck.err(path, line, col("rating_system"), "rating_system: required with a rating_tier")
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["rating_date"]) or not valid_date(r["rating_date"]):
                ck.err(path, line, col("rating_date"), "rating_date: YYYY-MM-DD required with a rating_tier")
            if not URL_RE.match(r["rating_source"]):
                ck.err(path, line, col("rating_source"), "rating_source: one http(s) URL required with a rating_tier")
        ck.check_sources(path, line, PROVIDER_COLS, r)
    for r in offs:
        if r["provider"].lower() not in seen:
            ck.err(path, 1, 1, f"provider: '{r['provider']}' of offering {r['id']} has no row")
    return [r for _, r in rows]


def snapshots(ck, data, offs, pmap):
    """data/prices/: the snapshots lib/catalog/snapshots.c applies. Returns
    {offering id: (USD per GPU-hour, source text)} for the rows they price."""
    prov = os.path.join(data, "prices", "provenance.csv")
    if not os.path.exists(prov):
        return {}
    root = os.path.dirname(data)
    inst = {k[1]: v for k, v in pmap.items() if k[0] == "instance"}
    byid = {r["id"]: r for r in offs}
    priced = {}
    cols = "cloud,file,commit,read_on,source_url,rows_kept".split(",")
    for line, p in ck.read(prov, cols):
        f = os.path.join(root, p["file"])
        if not os.path.exists(f):
            ck.err(prov, line, 2, f"file: '{p['file']}' does not exist")
            continue
        if not re.fullmatch(r"[0-9a-f]{7,40}", p["commit"]) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", p["read_on"]):
            ck.err(prov, line, 3, "commit (hex) and read_on (YYYY-MM-DD) required")
            continue
        best = {}
        with open(f, newline="") as fh:
            rd = csv.DictReader(fh)
            for rec in rd:
                n = rd.line_num
                key = f"{p['cloud']}/{rec.get('InstanceType', '')}"
                oid = inst.get(key)
                if not rec.get("AcceleratorName") or not oid or oid not in byid:
                    continue
                o = byid[oid]
                try:
                    count = float(rec["AcceleratorCount"])
                    price = float(rec["Price"]) if rec["Price"] else None
                except ValueError as e:
                    ck.err(p["file"], n, 1, f"does not parse ({e})")
                    continue
                if o["gpus_per_node"] and count != float(o["gpus_per_node"]):
                    ck.err(p["file"], n, 3, f"AcceleratorCount {count:g} contradicts offering '{oid}' (gpus_per_node {o['gpus_per_node']})")
                if price is not None and (oid not in best or price / count < best[oid]):
                    best[oid] = price / count
        for oid, x in best.items():
            o = byid[oid]
            own = o["price_on_demand_gpu_hr"] or o["price_reserved_gpu_hr"]
            d = o["price_as_of"] or o["as_of"]
            if o["currency"] not in ("", "USD"):
                continue
            if own and (day(p["read_on"]) - day(d)).days <= SNAPSHOT_OVERRIDE_DAYS:
                continue
            priced[oid] = (x, f"pipeline snapshot skypilot-catalog@{p['commit'][:12]}", p["read_on"])
    return priced


def snapshot_counts(data, pvals, priced):
    """What the shipped snapshots cover: clouds, the catalog rows their
    mapped types price, and the types the map lists without an offering."""
    prov = os.path.join(data, "prices", "provenance.csv")
    if not os.path.exists(prov):
        return
    root = os.path.dirname(data)
    clouds, mapped, listed = [], set(), set()
    with open(prov, newline="") as f:
        for p in csv.DictReader(f):
            path = os.path.join(root, p["file"])
            if not os.path.exists(path):
                continue
            clouds.append(p["cloud"])
            with open(path, newline="") as fh:
                for rec in csv.DictReader(fh):
                    key = ("instance", f"{p['cloud']}/{rec.get('InstanceType', '')}")
                    gcp_host = ("host_gpus", key[1]) in pvals  # GCP: host row + GPU row
                    if (not rec.get("AcceleratorName") and not gcp_host) or key not in pvals:
                        continue
                    (mapped if pvals[key] else listed).add((key[1], pvals[key]))
    ids = {oid for _, oid in mapped}
    print(f"price snapshots (data/prices/): {len(clouds)} clouds ({', '.join(clouds)}); "
          f"catalog rows their mapped types price: {len(ids)} ({len(mapped)} instance types), "
          f"of which priced by a snapshot now: {len(ids & set(priced))} (the others keep their own price, "
          f"read within six months of the snapshot, or the snapshot has no on-demand price for them); "
          f"instance types listed without an "
          f"offering (resale, auction or unusable prices): {len(listed)}")


def market(offs, provs, priced, today):
    """Issue 22's counts: rankable multi-node rows, priced rows by price
    source and age, ClusterMAX coverage."""
    need = ("gpu", "gpus_per_node", "intra_link", "network", "network_gbps_per_node")
    mrows = [r for r in offs if r["multinode"] == "yes"]
    def price_of(r):
        if r["id"] in priced:
            return priced[r["id"]]
        p = r["price_on_demand_gpu_hr"] or r["price_reserved_gpu_hr"]
        return (float(p), "provider page", r["price_as_of"] or r["as_of"]) if p else None
    rank = [r for r in mrows if all(r[k] for k in need) and r["network"] != "none" and price_of(r)]
    print(f"multi-node rows rankable (gpu, gpus_per_node, intra_link, network, Gbit/s and a price): "
          f"{len(rank)} of {len(mrows)}, from {len({r['provider'] for r in rank})} providers")
    cutoff = today - datetime.timedelta(days=SNAPSHOT_OVERRIDE_DAYS)
    fresh = sum(1 for r in rank if day(price_of(r)[2]) >= cutoff)
    print(f"rankable rows priced from a source read on or after {cutoff}: {fresh} of {len(rank)}")
    by = {}
    for r in offs:
        p = price_of(r)
        if p:
            k = (p[1], "<= 6 months" if day(p[2]) >= cutoff else "> 6 months")
            by[k] = by.get(k, 0) + 1
    print("priced rows by price source and age:")
    for k in sorted(by):
        print(f"  {k[0]}, {k[1]}: {by[k]}")
    rated = [p for p in provs if p["rating_system"].startswith("ClusterMAX")]
    print(f"providers with a sourced ClusterMAX rating: {len(rated)} "
          f"({', '.join(p['provider'] + ' ' + p['rating_system'] + ' ' + p['rating_tier'] for p in rated)}); "
          "ClusterMAX 3.0's list of 45 rated providers is not in the repository, so coverage of it is not counted")
    print(f"providers in the provider table: {len(provs)} "
          f"(multinode yes/no/unknown: {sum(p['multinode'] == 'yes' for p in provs)}/"
          f"{sum(p['multinode'] == 'no' for p in provs)}/{sum(p['multinode'] == '' for p in provs)}; "
          f"sales-contact {sum('sales-contact' in p['provisioning'] for p in provs)}, "
          f"waitlist {sum('waitlist' in p['provisioning'] for p in provs)})")
    tcp = [r["id"] for r in mrows if r["network"] == "tcp"]
    print(f"multi-node rows over plain Ethernet/TCP: {len(tcp)}{' (' + ', '.join(tcp) + ')' if tcp else ''}")


def pmap_values(data):
    """(kind, key) -> value of data/skypilot-map.csv."""
    with open(os.path.join(data, "skypilot-map.csv"), newline="") as f:
        return {(r["kind"], r["key"]): r["value"] for r in csv.DictReader(f)}


def main(argv):
    quiet = "--quiet" in argv
    args = [a for a in argv[1:] if not a.startswith("--")]
    data = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    ck = Checker()
    gpus = ck.gpus(os.path.join(data, "gpus.csv"))
    offs = ck.offerings(os.path.join(data, "offerings.csv"), gpus)
    pmap = ck.price_map(os.path.join(data, "skypilot-map.csv"), gpus, offs)
    provs = providers_table(ck, os.path.join(data, "providers.csv"), offs)
    priced = snapshots(ck, data, offs, {k: r for k, r in pmap_values(data).items()})
    for e in ck.errors:
        print(e, file=sys.stderr)
    if not quiet:
        providers = sorted({r["provider"] for r in offs})
        multi = sorted({r["provider"] for r in offs if r["multinode"] == "yes"})
        print(f"gpus: {len(gpus)}")
        print(f"offerings: {len(offs)}")
        print(f"providers: {len(providers)}")
        print(f"providers with multinode=yes: {len(multi)}")
        print(f"offerings with multinode=yes/no/unknown: "
              f"{sum(r['multinode'] == 'yes' for r in offs)}/"
              f"{sum(r['multinode'] == 'no' for r in offs)}/"
              f"{sum(r['multinode'] == '' for r in offs)}")
        today = os.environ.get("CLUSTERFIT_NOW") or datetime.date.today().isoformat()
        y, m = int(today[:4]), int(today[5:7])
        m -= 6
        if m < 1:
            y, m = y - 1, m + 12
        cutoff = f"{y:04d}-{m:02d}-{today[8:10]}"
        mrows = [r for r in offs if r["multinode"] == "yes"]
        # The date of a row's facts for staleness: price_as_of where set, else as_of
        # (as `clusterfit list --stale`); YYYY-MM counts as its first day.
        dated = lambda r: (r["price_as_of"] or r["as_of"]) + ("-01" if len(r["price_as_of"] or r["as_of"]) == 7 else "")
        old = sum(1 for r in mrows if dated(r) < cutoff)
        print(f"providers of each GPU (B300/GB300/MI355X): "
              + ", ".join(f"{g} {len({r['provider'] for r in offs if r['gpu'] == g})}" for g in ("B300", "GB300", "MI355X")))
        print(f"multi-node rows dated before {cutoff} (six months before {today}): {old} of {len(mrows)}")
        market(offs, provs, priced, datetime.date.fromisoformat(today))
        snapshot_counts(data, pmap_values(data), priced)
        print("unknown (empty) cells per column:")
        for c in OFFERING_COLS:
            n = sum(1 for r in offs if r[c] == "")
            if n:
                print(f"  {c}: {n}")
    print(f"{'FAILED' if ck.errors else 'OK'}: {len(ck.errors)} error(s)", file=sys.stderr)
    return 1 if ck.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
