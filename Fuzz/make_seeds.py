#!/usr/bin/env python3
"""Writes the small seed corpora of the fuzz targets into Fuzz/Corpus/<Target>/ (committed).
Images come from Tests/PadImageTests/Fixtures plus two made here with Pillow (EXIF orientation
in a JPEG APP1 and a PNG eXIf chunk); the archive seeds are made with GNU tar and zstd."""
import io, os, shutil, subprocess, tempfile
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
corpus = os.path.join(here, "Corpus")
fixtures = os.path.join(root, "Tests/PadImageTests/Fixtures")

def put(target, name, data):
    folder = os.path.join(corpus, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()

def dlib_int(value):
    """dlib's portable integer: a control byte (byte count, 0x80 when negative), then little-endian bytes."""
    body = abs(value).to_bytes(max(1, (abs(value).bit_length() + 7) // 8), "little")
    return bytes([len(body) | (0x80 if value < 0 else 0)]) + body

def dlib_float(value):
    """dlib's float: mantissa then exponent integers (value = m * 2^e), 24-bit mantissa like a float."""
    import math
    if value == 0: return dlib_int(0) + dlib_int(0)
    m, e = math.frexp(value)
    return dlib_int(int(round(m * (1 << 24)))) + dlib_int(e - 24)

def dlib_shape(values):
    return dlib_int(-len(values)) + dlib_int(-1) + b"".join(dlib_float(v) for v in values)

def tiny_shape_predictor(levels=2, depth=2):
    """A small model in dlib's shape_predictor layout: 3 landmarks, `levels` levels of 2 trees of the
    given depth over 4 feature pixels (no trained weights: made-up numbers)."""
    parts, splits, features = 3, (1 << depth) - 1, 4
    out = dlib_int(1) + dlib_shape([0.3, 0.35, 0.7, 0.35, 0.5, 0.75]) + dlib_int(levels)
    for level in range(levels):
        out += dlib_int(2)
        for tree in range(2):
            out += dlib_int(splits) + b"".join(dlib_int(i % features) + dlib_int((i + 1) % features) + dlib_float(5.0 * i - 3) for i in range(splits))
            out += dlib_int(splits + 1) + b"".join(dlib_shape([0.01 * (k - parts) * (leaf + 1) for k in range(2 * parts)]) for leaf in range(splits + 1))
    out += dlib_int(levels) + b"".join(dlib_int(features) + b"".join(dlib_int(i % parts) for i in range(features)) for _ in range(levels))
    out += dlib_int(levels) + b"".join(dlib_int(features) + b"".join(dlib_float(0.05 * (i - 2)) + dlib_float(-0.03 * i) for i in range(features)) for _ in range(levels))
    return out

for name in sorted(os.listdir(fixtures)):
    if name.endswith(".jpg"): put("FuzzJPEG", name, open(os.path.join(fixtures, name), "rb").read())
    if name.endswith(".png"): put("FuzzPNG", name, open(os.path.join(fixtures, name), "rb").read())
small = Image.new("RGB", (9, 7), (200, 100, 50))
buffer = io.BytesIO(); small.save(buffer, "JPEG", quality=50, exif=exif_orientation(8)); put("FuzzJPEG", "exif8.jpg", buffer.getvalue())
buffer = io.BytesIO(); small.save(buffer, "PNG", exif=exif_orientation(3)); put("FuzzPNG", "exif3.png", buffer.getvalue())

put("FuzzShapePredictor", "tiny.dat", tiny_shape_predictor())
put("FuzzShapePredictor", "deep.dat", tiny_shape_predictor(levels=1, depth=4))

put("FuzzManifest", "plain.csv", "path,label,species,split,subject,x,y,w,h\na.jpg,bonafide,,train,s1,1,2,30,40\nb.jpg,attack,print,dev,s2,,,,\n")
put("FuzzManifest", "bom-crlf-quoted.csv", "\ufeffpath,label,species,split,subject\r\n\"./a, b.jpg\",attack,\"print \"\"glossy\"\"\",eval,\"s\r\n1\"\r\n# comment\r\n../x.jpg,bonafide,,,\r\n")

put("FuzzScoreFile", "generic.csv", "id,label,species,score,split\na.jpg,bonafide,,0.9,eval\nb.jpg,attack,print,0.1,eval\n")
put("FuzzScoreFile", "bob4.txt", "client1 client1 data/real/a.png 0.8\nclient1 attack data/attack/print/b.png -0.2\n")
put("FuzzScoreFile", "bob5.txt", "c1 m1 c1 data/real/a.png 0.8\nc1 m1 attack data/attack/replay/b.png 0.1\n")
put("FuzzScoreFile", "bobpad.csv", "claimed_id,test_label,is_bonafide,attack_type,score\nc1,a.png,True,,0.7\nc1,b.png,False,print,0.2\n")

for name in sorted(os.listdir(os.path.join(root, "Sources/PadProfiles/Presets"))):
    put("FuzzProfile", name, open(os.path.join(root, "Sources/PadProfiles/Presets", name), "rb").read())

put("FuzzLunaOSL", "array.json", '[{"filename": "a.jpg", "liveness": {"prediction": 1, "estimations": {"probability": 0.93, "quality": 0.8}}},'
    ' {"filename": "b.jpg", "error": {"error_code": 1004, "desc": "x"}}]')
put("FuzzLunaOSL", "lines.jsonl", '{"filename": "a.jpg", "liveness": {"prediction": 0, "estimations": {"probability": 0.1}}}\r\n{"filename": "c.jpg", "error": {"error_code": 0}}\r\n')
put("FuzzMisnapMibi", "0001.json", '{"Parameters": {}, "UXP": [{"FFQ": [120, "850"]}, {"FPL": [130, 900]}, {"FSD": [140, true]}, {"SA": [1, 2]}]}')
put("FuzzIdemiaStatus", "status.csv", "id,status\na.jpg,Live\nb.jpg,Fake\nc.jpg,NoDecision\nd.jpg,Unknown\n")
put("FuzzIdemiaStatus", "bom-crlf.csv", "\ufeffid,status\r\n\"a,1.jpg\",Live\r\n")
put("FuzzLongCSV", "long.csv", "id,output,value\na.jpg,pad.score,0.25\na.jpg,x.y,\nb.jpg,pad.score,1e-3\n")
put("FuzzExternalAnswer", "ok.json", '{"id": "a.jpg", "outputs": {"score": 0.93, "quality": null}}')
put("FuzzExternalAnswer", "error.json", '{"id": "a.jpg", "error": "no face"}')
put("FuzzExternalAnswer", "string.json", '{"id": "a.jpg", "outputs": {"score": "0.5", "quality": true}}')

with tempfile.TemporaryDirectory() as work:
    with open(os.path.join(work, "manifest.json"), "w") as f: f.write('{"schema": 1}\n')
    with open(os.path.join(work, "samples.csv"), "w") as f: f.write("id,status,pad.score\na.jpg,ok,0.5\n\"b,c.jpg\",ok,\n")
    long_name = "profiles/" + "x" * 120 + ".yaml"
    os.makedirs(os.path.join(work, "profiles"))
    with open(os.path.join(work, long_name), "w") as f: f.write("name: x\n")
    archive = os.path.join(work, "results.tar.zst")
    subprocess.run(["tar", "--format=pax", "--zstd", "-cf", archive, "-C", work, "manifest.json", "samples.csv", long_name], check=True)
    put("FuzzArchive", "results.tar.zst", open(archive, "rb").read())

# FuzzTarRoundTrip: members as (1 byte name length, name, 2 bytes contents length, contents);
# a name length of 255 takes the next byte x 20 (so 255, 7 is a 140-byte name, written as pax).
def member(name, contents):
    name, contents = name.encode(), contents.encode()
    head = bytes([len(name)]) if len(name) < 255 else bytes([255, len(name) // 20])
    return head + name + len(contents).to_bytes(2, "big") + contents
put("FuzzTarRoundTrip", "two.bin", member("manifest.json", '{"schema": 1}\n') + member("samples.csv", "id,status\na.jpg,ok\n"))
put("FuzzTarRoundTrip", "pax.bin", member("profiles/" + "y" * 131, "name: y\n") + member("e\u0301 \u00e9.csv", "x" * 600))

# FuzzPNM: the first byte picks P5 (even) or P6 (odd); the rest follows the two signature bytes.
put("FuzzPNM", "gray8.pgm", b"\x00 # comment\n3 2\n255\n" + bytes(range(0, 60, 10)))
put("FuzzPNM", "rgb16.ppm", b"\x01\n2 1\n65535\n" + bytes(range(12)))
put("FuzzPNM", "maxval7.ppm", b"\x01 1 1 7 " + bytes([7, 3, 0]))

# FuzzCascadeXML: two tiny cascades in OpenCV's format (written here, not OpenCV's trained files).
haar = """<?xml version="1.0"?>
<opencv_storage>
<cascade>
  <stageType>BOOST</stageType>
  <featureType>HAAR</featureType>
  <height>8</height>
  <width>8</width>
  <stageNum>1</stageNum>
  <stages>
    <_>
      <maxWeakCount>1</maxWeakCount>
      <stageThreshold>-1.</stageThreshold>
      <weakClassifiers>
        <_>
          <internalNodes>0 -1 0 1.0e-02</internalNodes>
          <leafValues>-0.5 0.5</leafValues></_></weakClassifiers></_></stages>
  <features>
    <_>
      <rects>
        <_>0 0 4 8 -1.</_>
        <_>4 0 4 8 1.</_></rects>
      <tilted>0</tilted></_></features></cascade>
</opencv_storage>
"""
lbp = """<?xml version="1.0"?>
<opencv_storage>
<cascade type_id="opencv-cascade-classifier"><stageType>BOOST</stageType>
  <featureType>LBP</featureType>
  <height>9</height>
  <width>9</width>
  <stages>
    <_>
      <maxWeakCount>1</maxWeakCount>
      <stageThreshold>-0.5</stageThreshold>
      <weakClassifiers>
        <_>
          <internalNodes>
            0 -1 0 -1 -1 -1 -1 -1 -1 -1 -1</internalNodes>
          <leafValues>
            -1. 1.</leafValues></_></weakClassifiers></_></stages>
  <features>
    <_>
      <rect>
        0 0 3 3</rect></_></features></cascade>
</opencv_storage>
"""
put("FuzzCascadeXML", "haar.xml", haar)
put("FuzzCascadeXML", "lbp.xml", lbp)

# FuzzVideo: tiny clips of every container padbench reads, made by the ffmpeg command line
# (Debian's ffmpeg): 16x16, 3 frames, with B-frames (mpeg4, h264) and a rotated MP4.
def clip(name, *codec):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, name)
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=16x16:rate=5",
                        "-frames:v", "3", "-fflags", "+bitexact", "-flags", "+bitexact", *codec, out], check=True)
        put("FuzzVideo", name, open(out, "rb").read())
clip("mjpeg.avi", "-c:v", "mjpeg")
clip("mpeg4-bframes.avi", "-c:v", "mpeg4", "-bf", "2")
clip("h264.mp4", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-bf", "2")
clip("mjpeg.mov", "-c:v", "mjpeg")
# Damaged MPEG-4 (truncated, one byte flipped in a frame): with two decoder threads and frame
# threading, FFmpeg 5.1 asserts (`frame->buf[0]`) on such streams; FuzzVideo decodes with two.
mpeg4 = open(os.path.join(corpus, "FuzzVideo", "mpeg4-bframes.avi"), "rb").read()
put("FuzzVideo", "mpeg4-truncated.avi", mpeg4[: len(mpeg4) * 2 // 3])
flipped = bytearray(mpeg4)
flipped[len(flipped) // 2] ^= 0xFF
put("FuzzVideo", "mpeg4-flipped.avi", bytes(flipped))

# FuzzResumeJob: job.json of a bench of the sample dataset interrupted with Ctrl-C (kept as
# written, with its options fingerprint), and the same job as an older padbench wrote it.
clip("ffv1.mkv", "-c:v", "ffv1")
clip("vp9.webm", "-c:v", "libvpx-vp9", "-deadline", "realtime")
