"""CRC-32C (Castagnoli), as LOG-FORMAT.md uses it.

LOG-FORMAT.md, introduction: "Every checksum is CRC-32C (Castagnoli) *salted* with the
file's salt: the 8 salt bytes are fed to the CRC first, then the covered bytes." The
caller prepends the salt; this module computes the plain CRC-32C (reflected, polynomial
0x82F63B78, initial value and final xor 0xFFFFFFFF).
"""


def _table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _table()


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF
