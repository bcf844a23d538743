#!/usr/bin/env python3
"""Regenerates corpus.jsonl: label readings in, the true serial out, for the serial extractor.

Each line is one case: the readings a settled scan would hold (barcodes with their symbology,
printed lines), the true serial, whether it must come first, whether a planted barcode/print
disagreement must be shown as one, and values that must not be offered (part numbers, MAC
addresses, IMEIs, product codes). Serials follow the vendor formats; printed text is degraded
the way OCR degrades it (O/0, I/1/L, S/5, B/8, Z/2, G/6), only where the extractor can know
better: a barcode carries the same value, a vendor format fixes the position's class, or a Dell
Express Service Code proves the tag. Deterministic: the same seed gives the same corpus. Every
bug found later in real labels becomes a hand-written case appended to regressions.jsonl.
"""
import json
import random

rng = random.Random(20261130)
ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
DIGITS = "0123456789"
LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
TO_LETTER = {"0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G"}
TO_DIGIT = {v: k for k, v in TO_LETTER.items()}
TO_DIGIT["L"] = "1"
TO_DIGIT["D"] = "0"


def pick(chars, n):
    return "".join(rng.choice(chars) for _ in range(n))


def gtin(body13):
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body13)))
    return body13 + str((10 - total % 10) % 10)


def luhn(body14):
    total = 0
    for i, d in enumerate(reversed(body14)):
        n = int(d)
        if i % 2 == 0:
            n *= 2
            n = n - 9 if n > 9 else n
        total += n
    return body14 + str((10 - total % 10) % 10)


def fold(s):
    return "".join(TO_DIGIT.get(c, c) for c in s.upper())


def base36(s):
    return str(int(s, 36))


def degrade(value, classes, anywhere):
    """OCR confusions: at digit/letter positions (a format fixes them), or anywhere (a barcode backs it)."""
    out = list(value)
    for i, ch in enumerate(out):
        cls = classes[i] if i < len(classes) else "x"
        if rng.random() > 0.35:
            continue
        if cls == "9" and ch in TO_LETTER:
            out[i] = TO_LETTER[ch]
        elif cls == "A" and ch in TO_DIGIT:
            out[i] = TO_DIGIT[ch]
        elif anywhere and ch in TO_LETTER:
            out[i] = TO_LETTER[ch]
        elif anywhere and ch in TO_DIGIT:
            out[i] = TO_DIGIT[ch]
    return "".join(out)


SERIAL_KEYWORDS = ["S/N:", "SN:", "S/N", "SIN:", "5/N:", "Serial No.", "Serial No.:", "Serial Number:", "SERIAL NO:", "Serial:", "(S)", "SER NO."]

VENDORS = {
    # name: (serial maker, grammar classes, distractor lines maker)
    "apple12": (lambda: rng.choice(["C02", "C07", "C17", "D25", "F5K", "G8W", "FVF"]) + rng.choice("CDFGHJKLMNPQRSTVWXYZ")
                + pick("123456789CDFGHJKLMNPQRTVWXY", 1) + pick(ALNUM, 7), "xxxAxxxxxxxx"),
    "apple10": (lambda: pick("CDFGHJKLMNPQRTVWXY0123456789", 10), "xxxxxxxxxx"),
    "apple11": (lambda: pick(ALNUM, 2) + pick(DIGITS, 1) + pick(ALNUM, 8), "xx9xxxxxxxx"),
    "dell": (lambda: pick("0123456789BCDFGHJKLMNPQRSTVWXYZ", 7), "xxxxxxx"),
    "hp": (lambda: rng.choice(["5CG", "CZC", "CND", "MXL", "2UA", "8CG"]) + pick(DIGITS, 3) + pick(ALNUM, 4), "xxx999xxxx"),
    "lenovo": (lambda: rng.choice(["PF", "MJ", "PC", "LR"]) + pick(ALNUM, 6), "AAxxxxxx"),
    "cisco": (lambda: rng.choice(["FOC", "FDO", "JAE", "SAL", "FTX", "CAT"]) + str(rng.randint(10, 29)) + "%02d" % rng.randint(1, 52)
              + pick("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ", 4), "AAA9999xxxx"),
    "generic": (lambda: pick(LETTERS, 2) + pick(DIGITS, rng.randint(6, 10)), "xxxxxxxxxxxx"),
}


def distractors(vendor, serial):
    """Lines that name other things, some with values shaped like serials; and values not to offer."""
    lines, avoid = [], []
    pn = pick(ALNUM, len(serial))  # a part number the same length as the serial
    lines.append(rng.choice(["P/N: ", "PN: ", "Part No. ", "P/N "]) + pn)
    avoid.append(pn)
    if vendor == "cisco":
        lines.append("PID: WS-C%d-%dTS-L VID: V0%d" % (rng.choice([2960, 3650, 9200]), rng.choice([24, 48]), rng.randint(1, 9)))
    if vendor == "lenovo":
        mtm = pick(DIGITS, 2) + pick(ALNUM, 8)
        lines.append("MTM: " + mtm)
        avoid.append(mtm)
    if rng.random() < 0.3:
        mac = ":".join(pick("0123456789ABCDEF", 2) for _ in range(6))
        lines.append("MAC: " + mac)
        avoid.append(mac)
    if rng.random() < 0.25:
        imei = luhn(pick(DIGITS, 14))
        lines.append("IMEI: " + imei)
        avoid.append(imei)
    if rng.random() < 0.3:
        lines.append("Model " + rng.choice(["A2338", "A2141", "Latitude 5420", "EB-992F", "R7000"]))
    if rng.random() < 0.2:
        lines.append("MFG DATE: 20%02d-%02d-%02d" % (rng.randint(15, 26), rng.randint(1, 12), rng.randint(1, 28)))
    return lines, avoid


def case(n, vendor):
    make, classes = VENDORS[vendor]
    serial = make()
    readings, avoid = [], []
    barcode_kind = rng.choices(["plain", "none", "gs1", "sprefix", "qr-text", "qr-url", "lenovo1s"],
                               weights=[55, 15, 6, 6, 6, 4, 8 if vendor == "lenovo" else 0])[0]
    if vendor == "lenovo" and rng.random() < 0.7:
        barcode_kind = "lenovo1s"
    disagreement = barcode_kind == "plain" and rng.random() < 0.06
    has_barcode = barcode_kind != "none"
    esc = vendor == "dell" and rng.random() < 0.5
    # The printed serial line, degraded only where the extractor can know better.
    printed = degrade(serial, classes, anywhere=has_barcode and not disagreement)
    if esc and not has_barcode and rng.random() < 0.5:
        i = rng.randrange(len(serial))
        if serial[i] in TO_LETTER:
            printed = serial[:i] + TO_LETTER[serial[i]] + serial[i + 1:]
    keyword = "Service Tag:" if vendor == "dell" and rng.random() < 0.6 else rng.choice(SERIAL_KEYWORDS)
    lines = [rng.choice(["Apple Inc.", "Dell Inc.", "HP", "Lenovo", "Cisco Systems", "Made in China", "Property of Example Ltd"])]
    more, avoid = distractors(vendor, serial)
    lines += more
    lines.insert(rng.randrange(1, len(lines) + 1), keyword + " " + printed)
    if esc:
        lines.append("Express Service Code: " + base36(serial))
    if vendor == "generic" and rng.random() < 0.2:
        lines.append("(S) " + printed if keyword != "(S)" else "REV A01")
    for i, line in enumerate(lines):
        readings.append({"value": line, "symbology": None, "place": "printed line %d" % (i + 1)})
    barcode_value = serial
    if disagreement:
        i = rng.randrange(len(serial))
        if rng.random() < 0.5 and i + 1 < len(serial) and serial[i] != serial[i + 1]:
            barcode_value = serial[:i] + serial[i + 1] + serial[i] + serial[i + 2:]
        else:
            barcode_value = serial[:i] + rng.choice([c for c in ALNUM if c != serial[i] and c not in (TO_LETTER.get(serial[i]), TO_DIGIT.get(serial[i]))]) + serial[i + 1:]
        if fold(barcode_value) == fold(serial):  # a swap of two confusable characters is no disagreement
            barcode_value = serial[:-1] + ("7" if serial[-1] != "7" else "4")
    data, symbology = None, rng.choice(["CODE-128", "CODE-128", "CODE-39"])
    if barcode_kind == "plain":
        data = barcode_value
    elif barcode_kind == "gs1":
        data, symbology = "01" + gtin(pick(DIGITS, 13)) + "21" + serial, "CODE-128"
    elif barcode_kind == "sprefix":
        data = "S" + serial
    elif barcode_kind == "qr-text":
        data, symbology = "SN:%s;PN:%s" % (serial, avoid[0]), "QR-Code"
    elif barcode_kind == "qr-url":
        data, symbology = "https://support.example.com/check?sn=%s&lang=en" % serial, "QR-Code"
    elif barcode_kind == "lenovo1s":
        mtm = next((a for a in avoid if len(a) == 10), pick(DIGITS, 2) + pick(ALNUM, 8))
        data, symbology = "1S" + mtm + serial, "CODE-128"
    if data is not None:
        readings.append({"value": data, "symbology": symbology, "place": "%s barcode" % symbology})
    if rng.random() < 0.35:
        ean = gtin(pick(DIGITS, 12))
        readings.append({"value": ean, "symbology": "EAN-13", "place": "EAN-13 barcode"})
        avoid.append(ean)
    if rng.random() < 0.15:  # the part number as a barcode too
        readings.append({"value": avoid[0], "symbology": "CODE-128", "place": "CODE-128 barcode"})
    # Which barcode is which: the second barcode of a kind is "... barcode 2".
    seen = {}
    for r in readings:
        if r["symbology"]:
            seen[r["place"]] = seen.get(r["place"], 0) + 1
            if seen[r["place"]] > 1:
                r["place"] += " %d" % seen[r["place"]]
    rng.shuffle(readings)
    return {"name": "%s-%03d" % (vendor, n), "readings": readings, "serial": serial, "first": True,
            "disagreement": disagreement, "notCandidates": avoid}


cases = []
for vendor, count in [("apple12", 45), ("apple10", 25), ("apple11", 15), ("dell", 50), ("hp", 45), ("lenovo", 40), ("cisco", 45), ("generic", 45)]:
    for n in range(count):
        cases.append(case(n, vendor))
with open("corpus.jsonl", "w") as out:
    for c in cases:
        out.write(json.dumps(c, sort_keys=True) + "\n")
print("%d cases, %d with a planted disagreement" % (len(cases), sum(c["disagreement"] for c in cases)))
