#!/usr/bin/env python3
"""Makes a signed shortcut file, laid out as the Shortcuts app shares one since iOS 15, from an
unsigned one: an Apple Archive holding Shortcut.wflow, compressed with LZFSE in segments with
their SHA-256, in an Apple Encrypted Archive of the profile that signs and does not encrypt
(HKDF-SHA256 keys, HMAC-SHA256 of every header and segment, an ECDSA P-256 signature).

    pip install pyliblzfse cryptography
    Tests/Shortcuts/make-signed-shortcut.py Tests/Shortcuts/greeting.shortcut Tests/Shortcuts/greeting-signed.shortcut
    Tests/Shortcuts/make-signed-shortcut.py --small IN OUT    segments of 16 KiB, 32 to a cluster (the fuzzer's seeds)

The key is made afresh each time, so the file differs from run to run; the tests read what it holds.
"""
import hashlib, hmac, os, plistlib, struct, sys, time

import liblzfse
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

SEGMENT_SIZE, SEGMENTS_PER_CLUSTER = 0x100000, 256


def field_text(key, text):
    data = text.encode()
    return key.encode() + b"P" + struct.pack("<H", len(data)) + data


def field_number(key, value, size):
    return key.encode() + str(size).encode() + value.to_bytes(size, "little")


def field_time(key, seconds):
    return key.encode() + b"T" + struct.pack("<QI", seconds, 0)


def entry(fields, blob=b""):
    if blob:
        fields += b"DATB" + struct.pack("<I", len(blob))
    return b"AA01" + struct.pack("<H", 6 + len(fields)) + fields + blob


def apple_archive(plist):
    now = int(time.time())
    folder = entry(field_number("TYP", ord("D"), 1) + field_text("PAT", "") + field_number("MOD", 0o755, 2))
    owner = field_number("UID", 501, 2) + field_number("GID", 20, 1) + field_number("MOD", 0o644, 2) + field_number("FLG", 0, 1)
    file = entry(field_number("TYP", ord("F"), 1) + field_text("PAT", "Shortcut.wflow") + owner + field_time("MTM", now) + field_time("CTM", now), plist)
    return folder + file


def derive(size, ikm, info, salt=b""):
    return HKDF(hashes.SHA256(), size, salt, info).derive(ikm)


def mac(key, data, salt):
    return hmac.digest(key, salt + data + struct.pack("<Q", len(salt)), "sha256")


def signed(data):
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    random_key, salt = os.urandom(32), os.urandom(32)
    profile = struct.pack("<HB", 0, 0) + b"\0"  # profile 0 (three bytes), scrypt strength 0
    main_key = derive(32, random_key, b"AEA_AMK" + profile + public, salt)
    auth_data = plistlib.dumps({"SigningPublicKey": public}, fmt=plistlib.FMT_BINARY)

    clusters, next_mac = [], os.urandom(32)
    cluster_size = SEGMENT_SIZE * SEGMENTS_PER_CLUSTER
    for index in reversed(range((len(data) + cluster_size - 1) // cluster_size)):
        cluster_key = derive(32, main_key, b"AEA_CK" + struct.pack("<I", index))
        headers, macs, blobs = b"", b"", b""
        for segment in range(SEGMENTS_PER_CLUSTER):
            start = index * cluster_size + segment * SEGMENT_SIZE
            plain = data[start : start + SEGMENT_SIZE]
            if not plain:
                headers += bytes(8 + 32)
                macs += os.urandom(32)
                continue
            stored = liblzfse.compress(plain)
            if len(stored) >= len(plain):
                stored = plain
            headers += struct.pack("<II", len(plain), len(stored)) + hashlib.sha256(plain).digest()
            macs += mac(derive(32, cluster_key, b"AEA_SK" + struct.pack("<I", segment)), stored, b"")
            blobs += stored
        header_mac = mac(derive(32, cluster_key, b"AEA_CHEK"), headers, next_mac + macs)
        clusters.append(headers + next_mac + macs + blobs)
        next_mac = header_mac
    body = b"".join(reversed(clusters))

    prologue_size = 12 + len(auth_data) + 128 + 32 + 32 + 32 + 48 + 32
    root = struct.pack("<QQIIcB", len(data), prologue_size + len(body), SEGMENT_SIZE, SEGMENTS_PER_CLUSTER, b"e", 2) + bytes(22)
    root_mac = mac(derive(32, main_key, b"AEA_RHEK"), root, next_mac + auth_data)
    head = b"AEA1" + profile + struct.pack("<I", len(auth_data)) + auth_data
    rest = random_key + salt + root_mac + root + next_mac
    signature = private.sign(head + bytes(128) + rest, ec.ECDSA(hashes.SHA256())).ljust(128, b"\0")
    return head + signature + rest + body


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["--small"]:
        SEGMENT_SIZE, SEGMENTS_PER_CLUSTER = 0x4000, 32
        arguments = arguments[1:]
    if len(arguments) != 2:
        sys.exit("usage: make-signed-shortcut.py [--small] UNSIGNED.shortcut SIGNED.shortcut")
    with open(arguments[0], "rb") as unsigned:
        plist = unsigned.read()
    with open(arguments[1], "wb") as out:
        out.write(signed(apple_archive(plist)))
