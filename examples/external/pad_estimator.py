#!/usr/bin/env python3
"""A padbench external estimator: reads one JSON request per line on stdin, answers one per line.

    padbench bench --dataset datasets/sample --profiles idemia-high --external "pad=python3 examples/external/pad_estimator.py"

Protocol: first {"describe": true} -> {"outputs": [...], "version": ..., "ranges": ..., "directions": ...};
then {"id": ID, "path": PATH} -> {"id": ID, "outputs": {"score": x}} or {"id": ID, "error": "..."}
(a video frame: PATH is the decoded frame as a PPM, plus "presentation", "frame", "time", "video").
Flush after every answer. Replace `score()` with your model.

This example's score is a simple real image feature computed with the standard library only
(so the tests can run it anywhere): the compressed bits per pixel of the file, bpp = 8 * file bytes /
(width * height * frames), with the size read from the JPEG frame header (SOF), the PNG IHDR chunk or
an AVI main header (avih: width, height, total frames; every frame of a clip gets the clip's score),
mapped into (0, 1] as 1 / (1 + bpp), higher = fewer bits per pixel. At one quality setting the
compressed size per pixel grows with fine detail and noise (JPEG's entropy-coded DCT coefficients),
and a re-captured print or screen adds detail of its own (halftone dots, moire, screen pixels): on
datasets/sample the attacks take more bits per pixel than the bona fide presentations (AUC 0.66 on
dev, 0.62 on eval). A crude cue, not a PAD method.
For the tests, ids containing "crash", "hang", "garbage" or "wrongid" make it misbehave on purpose.
"""
import json, struct, sys, time


def dimensions(data):
    """(width, height, frames) from a PNG IHDR chunk, a JPEG SOF marker or an AVI avih header; None
    when none is found."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24]) + (1,)
    if data[:4] == b"RIFF" and data[8:12] == b"AVI ":
        i = data.find(b"avih", 12)
        if i < 0 or i + 48 > len(data):
            return None
        # MainAVIHeader: microseconds per frame, max bytes/s, padding, flags, total frames, initial
        # frames, streams, suggested buffer size, width, height.
        fields = struct.unpack("<10I", data[i + 8:i + 48])
        return fields[8], fields[9], fields[4]
    i = 2 if data[:2] == b"\xff\xd8" else len(data)
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 2 if marker != 0xFF else 1
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        # SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and i + 9 <= len(data):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height, 1
        i += 2 + length
    return None


def score(path):
    with open(path, "rb") as f:
        data = f.read()
    size = dimensions(data)
    if not size or size[0] * size[1] * size[2] == 0:
        raise OSError(0, "not a JPEG, PNG or AVI file with a size")
    bpp = 8.0 * len(data) / (size[0] * size[1] * size[2])
    return 1.0 / (1.0 + bpp)


def main():
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("describe"):
            reply = {"outputs": ["score"], "version": "example-1", "ranges": {"score": [0, 1]}, "directions": {"score": "higher-better"}}
        else:
            sample = request["id"]
            if "crash" in sample:
                sys.exit(3)
            if "hang" in sample:
                time.sleep(60)
            if "garbage" in sample:
                print("this is not json", flush=True)
                continue
            if "wrongid" in sample:
                sample = "someone-else"
            # A video frame's "path" is the decoded frame as a temporary PNG (what a model that looks
            # at pixels reads); "video", "presentation", "frame" and "time" say which frame it is.
            # This cue is about how the capture was compressed, so it reads the video file itself.
            path = request.get("video", request["path"])
            try:
                reply = {"id": sample, "outputs": {"score": score(path)}}
            except OSError as error:
                reply = {"id": sample, "error": f"cannot read {path}: {error.strerror}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
