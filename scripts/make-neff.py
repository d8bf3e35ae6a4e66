#!/usr/bin/env python3
"""Writes a .neff from a directory of members (python3 stdlib only).

A NEFF is a 1024-byte little-endian header followed by a tar archive,
gzip-compressed by current compilers. This writes the header fields
topolint reads (header_size @8, data_size @16, lnc_size @552, plus a few
informative ones) and a deterministic tar of every file under MEMBERS_DIR
(sorted, mtime 0, owner 0), so regenerated fixtures are byte-identical.

    scripts/make-neff.py MEMBERS_DIR OUT.neff --lnc 2
    scripts/make-neff.py MEMBERS_DIR OUT.neff --plain          # no gzip
    scripts/make-neff.py MEMBERS_DIR OUT.neff --data-size 7    # corrupt header
    scripts/make-neff.py MEMBERS_DIR OUT.neff --truncate 1500  # cut the file

The --header-size/--data-size/--truncate/--payload options exist to build
corrupt archives for tests.
"""

import argparse
import gzip
import io
import os
import struct
import sys
import tarfile

HEADER_BYTES = 1024


def build_tar(members_dir):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        paths = []
        for root, dirs, files in os.walk(members_dir):
            dirs.sort()
            for name in files:
                paths.append(os.path.join(root, name))
        for path in sorted(paths, key=lambda p: os.path.relpath(p, members_dir)):
            rel = os.path.relpath(path, members_dir).replace(os.sep, "/")
            with open(path, "rb") as f:
                data = f.read()
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            info.mtime = 0
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def gzip_bytes(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as gz:
        gz.write(data)
    return buf.getvalue()


def build_header(header_size, data_size, lnc, num_graphs, name):
    h = bytearray(HEADER_BYTES)
    struct.pack_into("<Q", h, 0, 1)  # pkg_version
    struct.pack_into("<Q", h, 8, header_size)
    struct.pack_into("<Q", h, 16, data_size)
    struct.pack_into("<Q", h, 24, 2)  # neff_version_major
    struct.pack_into("<Q", h, 32, 0)  # neff_version_minor
    h[40:40 + 32] = b"topolint-make-neff".ljust(32, b"\0")
    struct.pack_into("<I", h, 168, num_graphs)  # num_tpb
    h[220:220 + 256] = name.encode()[:255].ljust(256, b"\0")
    struct.pack_into("<I", h, 476, num_graphs)  # requested_tpb_count
    struct.pack_into("<I", h, 552, lnc)
    return bytes(h)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("members_dir", help="directory whose files become the tar members")
    p.add_argument("out", help="the .neff to write")
    p.add_argument("--lnc", type=int, default=1, help="header lnc_size (default 1)")
    p.add_argument("--plain", action="store_true", help="do not gzip the tar")
    p.add_argument("--header-size", type=int, help="override header_size (default 1024)")
    p.add_argument("--data-size", type=int, help="override data_size (default: payload length)")
    p.add_argument("--payload", help="use this file's bytes as the payload instead of a tar")
    p.add_argument("--truncate", type=int, help="cut the written file to this many bytes")
    args = p.parse_args(argv)

    if args.payload:
        with open(args.payload, "rb") as f:
            payload = f.read()
    else:
        payload = build_tar(args.members_dir)
        if not args.plain:
            payload = gzip_bytes(payload)
    num_graphs = sum(1 for e in os.listdir(args.members_dir)
                     if os.path.isfile(os.path.join(args.members_dir, e, "def.json"))) \
        if os.path.isdir(args.members_dir) else 0
    header_size = HEADER_BYTES if args.header_size is None else args.header_size
    data_size = len(payload) if args.data_size is None else args.data_size
    name = os.path.splitext(os.path.basename(args.out))[0]
    data = build_header(header_size, data_size, args.lnc, num_graphs, name) + payload
    if args.truncate is not None:
        data = data[:args.truncate]
    with open(args.out, "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
