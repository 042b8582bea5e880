#!/usr/bin/env python3
"""Writes a copy of a cleanly closed log with its stored index broken, for check.sh.

usage: break_index.py LOG OUT checksum|entry|header

checksum: a byte of the index payload flipped, its payload CRC left failing. entry: the
first entry's Δoffset one off (the entries no longer list the records contiguously), with
the payload CRC and header CRC made right again, so only the index's content is wrong.
Either way LOG-FORMAT.md's damage table says a reader passes the index over and reads every
event from the records, and `verify` reports damage at the index's offset. header: the
index record header's first event index one more than the log's event count, its header
CRC made right: readers do not use it, and `verify` reports damage at the index's offset
("Index payload").
"""
import struct
import sys

sys.dont_write_bytecode = True
from crc import crc32c  # noqa: E402

log, out, mode = sys.argv[1:4]
d = bytearray(open(log, "rb").read())
salt = bytes(d[16:24])
# "The last 16 bytes of a cleanly closed file are the index record's own offset and the
# magic SLINDEX1"
off = struct.unpack_from("<Q", d, len(d) - 16)[0]
assert d[-8:] == b"SLINDEX1" and d[off:off + 4] == b"SLRI", "no stored index at the end of " + log
p0 = off + 48
stored = struct.unpack_from("<I", d, off + 12)[0]
i = 0
while d[p0 + i] & 0x80:  # count:varint
    i += 1
if mode == "header":
    # "first event index" is the header's u64 at bytes 24-31 ("Record header")
    struct.pack_into("<Q", d, off + 24, struct.unpack_from("<Q", d, off + 24)[0] + 1)
    struct.pack_into("<I", d, off + 4, crc32c(salt + bytes(d[off:off + 4]) + bytes(d[off + 8:off + 48])))
    open(out, "wb").write(d)
    sys.exit(0)
d[p0 + i + 3] ^= 1  # after kind:u8 codec:u8, Δoffset's first byte
if mode == "entry":
    struct.pack_into("<I", d, off + 8, crc32c(salt + bytes(d[p0:p0 + stored])))
    struct.pack_into("<I", d, off + 4, crc32c(salt + bytes(d[off:off + 4]) + bytes(d[off + 8:off + 48])))
elif mode != "checksum":
    sys.exit("usage: break_index.py LOG OUT checksum|entry|header")
open(out, "wb").write(d)
