#!/usr/bin/env python3
"""check-json.py SCHEMA [FILE] -- validates a JSON document the tool wrote
(FILE, or standard input) against docs/schema/SCHEMA.schema.json, with every
schema of docs/schema/ available to "$ref" by its file name. Prints each
violation with its JSON path and exits 1; exits 0 when the document conforms,
2 on a usage error or a schema that does not load.

Validation is python3-jsonschema's (Draft 2020-12; Debian 12 ships 4.10,
newer ones resolve references through `referencing`)."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "..", "docs", "schema")


def load_all():
    store = {}
    for name in sorted(os.listdir(SCHEMAS)):
        if name.endswith(".schema.json"):
            with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
                store[name] = json.load(f)
    return store


def validator_for(store, name):
    import jsonschema
    schema = store[name]
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    try:
        from referencing import Registry, Resource
        reg = Registry().with_resources(
            (n, Resource.from_contents(s)) for n, s in store.items())
        return cls(schema, registry=reg)
    except (ImportError, TypeError):  # jsonschema before 4.18: RefResolver
        resolver = jsonschema.RefResolver(base_uri=name, referrer=schema, store=store)
        return cls(schema, resolver=resolver)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    name = argv[1] + ".schema.json"
    try:
        store = load_all()
        if name not in store:
            print(f"check-json: no schema docs/schema/{name}", file=sys.stderr)
            return 2
        v = validator_for(store, name)
    except Exception as e:  # a schema that does not load is a usage error
        print(f"check-json: {name}: {e}", file=sys.stderr)
        return 2
    src = open(argv[2], encoding="utf-8") if len(argv) == 3 else sys.stdin
    doc = json.load(src)
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors[:20]:
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path) or "."
        print(f"check-json: {argv[1]}: {path}: {e.message}", file=sys.stderr)
    if len(errors) > 20:
        print(f"check-json: {argv[1]}: {len(errors) - 20} more", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
