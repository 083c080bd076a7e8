"""How ``infer_corpus.json`` was made: the formats, their truth layouts, the file selection and the split.

Run once, against the mirrors (``/work/.mirror/owner+name/repo``, as the search tool's fetch lays
them); the manifest it writes is what the benchmark reads, and it is committed. Running it again
gives the same manifest as long as the mirrors' commits are the same (the commits are recorded).

    .venv/bin/python benchmarks/infer_corpus_make.py [--mirrors /work/.mirror] [--check]
    .venv/bin/python benchmarks/infer_corpus_make.py --fresh     # infer_fresh.json: the held-out set (FRESH)

Truth: every format's fixed header, field by field (``offset, width, id, role``), transcribed from
its reader: a Kaitai gallery spec (kaitai-io/kaitai_struct_formats, the commit below) or an engine's
or tool's reader (repository, file, commit). The fixed header ends at the first field whose size or
position varies between files, as ``animre.infer._score.header_truth`` takes it; where every corpus
file has at least one entry of a table right after the header (ICO, TrueType), the first entry is
included, said in ``note``. Arrays of numbers read one by one are one field per element; strings
and byte blocks read as one are one field. ``role``: magic (a constant the reader checks),
file_size, offset, count, size, as the reader uses the field; None otherwise.

Files: real files of public repositories (tests, samples, game data of free projects), never made
here; files whose name says a fuzzer or a crash made them are left out, and files mangled by a text
round trip (U+FFFD in their first 4 KiB); distinct contents only; at
most ``MAX_FILES`` per format (a fixed order: sorted by path).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "infer_corpus.json"
SEED = 28  # the split's seed (issue 28); drawn once, never changed after tuning starts
MAX_FILES = 40
MAX_SIZE = 4 << 20  # snapshots lack files of 4 MiB and more
FUZZ = re.compile(r"crash|timeout|fuzz|oss-|invalid|truncat|broken|corrupt|bad_|_bad|overflow|oob|^oom-", re.I)

GALLERY = ("kaitai-io/kaitai_struct_formats", "c6ea87cc3339490493c37fcee8134a8192d3cbf9")
BOT = ("bitterbassist/bot-wraith", "9cee5be0e40551113a7e3c32c5e83d090533eaaa")  # a CPython tree (Lib/)


def seq(*fields, at: int = 0) -> list[dict]:
    """Fields laid end to end: ``(width, id, role)``, or ``(width, id, role, n)`` for n elements."""
    out = []
    for f in fields:
        w, name, role, *n = f
        n = n[0] if n else 1
        for i in range(n):
            out.append({"offset": at, "width": w, "id": f"{name}[{i}]" if n > 1 else name, "role": role})
            at += w
    return out


def gallery(path: str, note: str = "") -> dict:
    return {"source": "kaitai gallery", "repository": GALLERY[0], "commit": GALLERY[1], "file": path,
            **({"note": note} if note else {})}


def reader(repo: str, commit: str, file: str, where: str, note: str = "") -> dict:
    return {"source": "reader", "repository": repo, "commit": commit, "file": file, "where": where,
            **({"note": note} if note else {})}


# the reader repositories' commits (the mirrors' HEAD when the manifest was made)
PILLOW = "4e5f09f533dbd0d87d39951f48b62f4d1a421cba"
LIBXMP = "0eee565c6179d06a666859c0fc726900ed608606"
VENGI = "ee98c87304931a099c7446af7a0fec35d728f543"
MGBA = "afd6f14eaf8bd35214ed3fb9dc69a92bfc3877a9"
GME = "dd3182a8bdae3ff761438632aace418fbcaed439"
SAFERWALL = "10ab525f1cc6c1ee0f4f12baa81c90ebae5aa716"

_MOD_INS = [(22, "name", None), (2, "size", "size"), (1, "finetune", None), (1, "volume", None),
            (2, "loop_start", None), (2, "loop_size", None)]


def _mod() -> list[dict]:
    out = seq((20, "name", None))
    for i in range(31):
        out += seq(*[(w, f"ins[{i}].{n}", r) for w, n, r in _MOD_INS], at=out[-1]["offset"] + out[-1]["width"])
    return out + seq((1, "len", None), (1, "restart", None), (1, "order", None, 128), (4, "magic", "magic"),
                     at=950)


FORMATS: list[dict] = [
    # ---------------------------------------------------------------- images
    {"id": "png", "kind": "image", "game": False, "endian": "be", "truth": gallery("image/png.ksy"),
     "fields": seq((8, "magic", "magic"), (4, "ihdr_len", None), (4, "ihdr_type", None), (4, "width", None),
                   (4, "height", None), (1, "bit_depth", None), (1, "color_type", None),
                   (1, "compression_method", None), (1, "filter_method", None), (1, "interlace_method", None),
                   (4, "ihdr_crc", None)),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/[^/]*\.png$"),
               ("kaitai-io/kaitai_struct_samples", None, r"^image/png/.*\.png$")]},
    {"id": "gif", "kind": "image", "game": False, "endian": "le", "truth": gallery("image/gif.ksy"),
     "fields": seq((3, "magic", "magic"), (3, "version", None), (2, "screen_width", None),
                   (2, "screen_height", None), (1, "flags", None), (1, "bg_color_index", None),
                   (1, "pixel_aspect_ratio", None)),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/[^/]*\.gif$")]},
    {"id": "bmp", "kind": "image", "game": False, "endian": "le", "truth": gallery("image/bmp.ksy"),
     "fields": seq((2, "file_type", "magic"), (4, "len_file", "file_size"), (2, "reserved1", None),
                   (2, "reserved2", None), (4, "ofs_bitmap", "offset"), (4, "len_header", "size")),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/bmp/(g|q)/.*\.bmp$")]},
    {"id": "jpeg", "kind": "image", "game": False, "endian": "be",
     "truth": gallery("image/jpeg.ksy", "segments: SOI (magic 0xff, marker 0xd8), then the next segment's "
                      "magic, marker and length; its data's layout depends on the marker"),
     "fields": seq((1, "soi.magic", "magic"), (1, "soi.marker", None), (1, "seg1.magic", None),
                   (1, "seg1.marker", None), (2, "seg1.length", "size")),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/[^/]*\.jpg$")]},
    {"id": "tga", "kind": "image", "game": False, "endian": "le", "truth": gallery("image/tga.ksy"),
     "fields": seq((1, "image_id_len", "size"), (1, "color_map_type", None), (1, "image_type", None),
                   (2, "color_map_ofs", None), (2, "num_color_map", "count"), (1, "color_map_depth", None),
                   (2, "x_offset", None), (2, "y_offset", None), (2, "width", None), (2, "height", None),
                   (1, "image_depth", None), (1, "img_descriptor", None)),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/.*\.tga$")]},
    {"id": "pcx", "kind": "image", "game": False, "endian": "le", "truth": gallery("image/pcx.ksy"),
     "fields": seq((1, "magic", "magic"), (1, "version", None), (1, "encoding", None), (1, "bits_per_pixel", None),
                   (2, "img_x_min", None), (2, "img_y_min", None), (2, "img_x_max", None), (2, "img_y_max", None),
                   (2, "hdpi", None), (2, "vdpi", None), (48, "palette_16", None), (1, "reserved", None),
                   (1, "num_planes", None), (2, "bytes_per_line", None), (2, "palette_info", None),
                   (2, "h_screen_size", None), (2, "v_screen_size", None), (54, "rest", None)),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/[^/]*\.pcx$"),
               ("christopherpow/nes-test-roms", None, r"\.pcx$")]},
    {"id": "ico", "kind": "image", "game": False, "endian": "le",
     "truth": gallery("image/ico.ksy", "with the first icon_dir_entry: every corpus file has num_images >= 1"),
     "fields": seq((4, "magic", "magic"), (2, "num_images", "count"), (1, "width", None), (1, "height", None),
                   (1, "num_colors", None), (1, "reserved", None), (2, "num_planes", None), (2, "bpp", None),
                   (4, "len_img", "size"), (4, "ofs_img", "offset")),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/[^/]*\.ico$"),
               ("vengi-voxel/vengi", None, r"\.ico$"), ("depp/sglib", None, r"\.ico$")]},
    {"id": "psd", "kind": "image", "game": False, "endian": "be",
     "truth": reader("python-pillow/Pillow", PILLOW, "src/PIL/PsdImagePlugin.py", "PsdImageFile._open: "
                     "read(26), i16(s, 4), i16(s, 12), i32(s, 14), i32(s, 18), i16(s, 22), i16(s, 24); "
                     "then size = i32(read(4)) of the mode data"),
     "fields": seq((4, "signature", "magic"), (2, "version", None), (6, "reserved", None), (2, "channels", None),
                   (4, "height", None), (4, "width", None), (2, "depth", None), (2, "mode", None),
                   (4, "len_mode_data", "size")),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/[^/]*\.psd$")]},
    # ---------------------------------------------------------------- audio
    {"id": "wav", "kind": "audio", "game": False, "endian": "le",
     "truth": reader(BOT[0], BOT[1], "Lib/wave.py", "Wave_read.initfp / _read_fmt_chunk (RIFF, WAVE, "
                     "chunk 'fmt ', wFormatTag, nChannels, nSamplesPerSec, nAvgBytesPerSec, nBlockAlign, "
                     "wBitsPerSample); the same layout as the gallery's media/wav.ksy"),
     "fields": seq((4, "riff", "magic"), (4, "len_riff", "file_size"), (4, "wave", "magic"),
                   (4, "fmt_id", None), (4, "len_fmt", "size"), (2, "format_tag", None), (2, "channels", None),
                   (4, "sample_rate", None), (4, "byte_rate", None), (2, "block_align", None),
                   (2, "bits_per_sample", None)),
     "files": [(BOT[0], BOT[1], r"^(new-wraith-bot/)?Lib/test/(audiodata|sndhdrdata)/.*\.wav$"),
               ("depp/sglib", None, r"\.wav$")]},
    {"id": "au", "kind": "audio", "game": False, "endian": "be",
     "truth": reader(BOT[0], BOT[1], "Lib/sunau.py", "Au_read.initfp: magic, header size (the data's "
                     "offset), data size, encoding, frame rate, channels: six _read_u32; as media/au.ksy"),
     "fields": seq((4, "magic", "magic"), (4, "ofs_data", "offset"), (4, "data_size", "size"),
                   (4, "encoding", None), (4, "sample_rate", None), (4, "num_channels", None)),
     "files": [(BOT[0], BOT[1], r"^(new-wraith-bot/)?Lib/test/(audiodata|sndhdrdata)/.*\.au$"),
               (BOT[0], BOT[1], r"^(new-wraith-bot/)?Lib/test/audiotest\.au$")]},
    {"id": "aiff", "kind": "audio", "game": False, "endian": "be",
     "truth": reader(BOT[0], BOT[1], "Lib/aifc.py", "Aifc_read.initfp (FORM chunk: id, size, 'AIFF'/'AIFC') "
                     "and _read_comm_chunk for the first chunk (id, size, nchannels, nframes, sampwidth, "
                     "80-bit rate)"),
     "fields": seq((4, "form", "magic"), (4, "len_form", "file_size"), (4, "form_type", None),
                   (4, "chunk_id", None), (4, "len_chunk", "size"), (2, "channels", None), (4, "frames", None),
                   (2, "sample_width", None), (10, "rate", None)),
     "files": [(BOT[0], BOT[1], r"^(new-wraith-bot/)?Lib/test/(audiodata|sndhdrdata)/.*\.aiff$")]},
    {"id": "xm", "kind": "audio", "game": False, "endian": "le",
     "truth": gallery("media/tracker_modules/fasttracker_xm_module.ksy", "preheader and header; flags "
                      "(b15 + b1) read as one u2; pattern_order_table is repeat-expr 256"),
     "fields": seq((17, "signature0", "magic"), (20, "module_name", None), (1, "signature1", None),
                   (20, "tracker_name", None), (1, "version_minor", None), (1, "version_major", None),
                   (4, "header_size", "size"), (2, "song_length", None), (2, "restart_position", None),
                   (2, "num_channels", "count"), (2, "num_patterns", "count"), (2, "num_instruments", "count"),
                   (2, "flags", None), (2, "default_tempo", None), (2, "default_bpm", None),
                   (1, "pattern_order_table", None, 256)),
     "files": [("libxmp/libxmp", None, r"^test-dev/(data|openmpt/xm)/[^/]*\.xm$", "xm")]},
    {"id": "s3m", "kind": "audio", "game": False, "endian": "le",
     "truth": gallery("media/tracker_modules/s3m.ksy", "up to the 32 channel bytes; then orders (num_orders)"),
     "fields": seq((28, "song_name", None), (1, "magic1", None), (1, "file_type", None), (2, "reserved1", None),
                   (2, "num_orders", "count"), (2, "num_instruments", "count"), (2, "num_patterns", "count"),
                   (2, "flags", None), (2, "version", None), (2, "samples_format", None), (4, "magic2", "magic"),
                   (1, "global_volume", None), (1, "initial_speed", None), (1, "initial_tempo", None),
                   (1, "stereo_master_volume", None), (1, "ultra_click_removal", None),
                   (1, "has_custom_pan", None), (8, "reserved2", None), (2, "ofs_special", "offset"),
                   (1, "channels", None, 32)),
     "files": [("libxmp/libxmp", None, r"^test-dev/(data|openmpt/s3m)/[^/]*\.s3m$")]},
    {"id": "it", "kind": "audio", "game": False, "endian": "le",
     "truth": reader("libxmp/libxmp", LIBXMP, "src/loaders/it.h", "struct it_file_header"),
     "fields": seq((4, "magic", "magic"), (26, "name", None), (1, "hilite_min", None), (1, "hilite_maj", None),
                   (2, "ordnum", "count"), (2, "insnum", "count"), (2, "smpnum", "count"), (2, "patnum", "count"),
                   (2, "cwt", None), (2, "cmwt", None), (2, "flags", None), (2, "special", None), (1, "gv", None),
                   (1, "mv", None), (1, "is", None), (1, "it", None), (1, "sep", None), (1, "pwd", None),
                   (2, "msglen", "size"), (4, "msgofs", "offset"), (4, "rsvd", None), (1, "chpan", None, 64),
                   (1, "chvol", None, 64)),
     "files": [("libxmp/libxmp", None, r"^test-dev/(data|openmpt/it)/[^/]*\.it$")]},
    {"id": "mod", "kind": "audio", "game": False, "endian": "be",
     "truth": reader("libxmp/libxmp", LIBXMP, "src/loaders/mod.h", "struct mod_header, struct mod_instrument "
                     "(31 instruments; the files with 'M.K.' at 1080)"),
     "fields": _mod(),
     "files": [("libxmp/libxmp", None, r"^test-dev/(data|data/m|openmpt/mod)/[^/]*\.mod$", "mod31")]},
    {"id": "mmd", "kind": "audio", "game": False, "endian": "be",
     "truth": reader("libxmp/libxmp", LIBXMP, "src/loaders/med.h", "struct MMD0 (52 bytes; MMD0-MMD3)"),
     "fields": seq((4, "id", "magic"), (4, "modlen", "file_size"), (4, "song", "offset"), (2, "psecnum", None),
                   (2, "pseq", None), (4, "blockarr", "offset"), (1, "mmdflags", None), (3, "reserved", None),
                   (4, "smplarr", "offset"), (4, "reserved2", None), (4, "expdata", "offset"),
                   (4, "reserved3", None), (2, "pstate", None), (2, "pblock", None), (2, "pline", None),
                   (2, "pseqnum", None), (2, "actplayline", None), (1, "counter", None),
                   (1, "extra_songs", None)),
     "files": [("libxmp/libxmp", None, r"^test-dev/data/(m/)?[^/]*\.med$", "mmd")]},
    {"id": "far", "kind": "audio", "game": False, "endian": "le",
     "truth": reader("libxmp/libxmp", LIBXMP, "src/loaders/far_load.c", "struct far_header"),
     "fields": seq((4, "magic", "magic"), (40, "name", None), (3, "crlf", None), (2, "headersize", "size"),
                   (1, "version", None), (1, "ch_on", None, 16), (1, "rsvd1", None, 9), (1, "tempo", None),
                   (1, "pan", None, 16), (1, "rsvd2", None, 4), (2, "textlen", "size")),
     "files": [("libxmp/libxmp", None, r"^test-dev/data/(m/)?[^/]*\.far$")]},
    # ---------------------------------------------------------------- fonts, executables, archives
    {"id": "ttf", "kind": "font", "game": False, "endian": "be",
     "truth": gallery("font/ttf.ksy", "offset_table and the first dir_table_entry (every font has tables)"),
     "fields": seq((2, "sfnt_version_major", None), (2, "sfnt_version_minor", None), (2, "num_tables", "count"),
                   (2, "search_range", None), (2, "entry_selector", None), (2, "range_shift", None),
                   (4, "tag", None), (4, "checksum", None), (4, "ofs_table", "offset"), (4, "len_table", "size")),
     "files": [("python-pillow/Pillow", None, r"^Tests/fonts/[^/]*\.ttf$"), ("depp/sglib", None, r"\.ttf$"),
               ("vengi-voxel/vengi", None, r"\.ttf$")]},
    {"id": "elf64", "kind": "executable", "game": False, "endian": "le",
     "truth": gallery("executable/elf.ksy", "ELFCLASS64, little-endian files only (bits = b64, endian = le)"),
     "fields": seq((4, "magic", "magic"), (1, "bits", None), (1, "endian", None), (1, "ei_version", None),
                   (1, "abi", None), (1, "abi_version", None), (7, "pad", None), (2, "e_type", None),
                   (2, "machine", None), (4, "e_version", None), (8, "entry_point", None),
                   (8, "ofs_program_headers", "offset"), (8, "ofs_section_headers", "offset"), (4, "flags", None),
                   (2, "e_ehsize", "size"), (2, "program_header_entry_size", None),
                   (2, "qty_program_header", "count"), (2, "section_header_entry_size", None),
                   (2, "qty_section_header", "count"), (2, "section_names_idx", None)),
     "files": [("eliben/pyelftools", None, r"^test/testfiles_for_.*$", "elf64le"),
               ("kaitai-io/kaitai_struct_samples", None, r"^executable/elf/", "elf64le")]},
    {"id": "pe", "kind": "executable", "game": False, "endian": "le",
     "truth": reader("saferwall/pe", SAFERWALL, "dosheader.go", "type ImageDOSHeader (the gallery's "
                     "executable/microsoft_pe.ksy reads the same 64 bytes as magic, a 58-byte blob and ofs_pe)"),
     "fields": seq((2, "magic", "magic"), (2, "bytes_on_last_page_of_file", None), (2, "pages_in_file", None),
                   (2, "relocations", "count"), (2, "size_of_header", None), (2, "min_extra_paragraphs", None),
                   (2, "max_extra_paragraphs", None), (2, "initial_ss", None), (2, "initial_sp", None),
                   (2, "checksum", None), (2, "initial_ip", None), (2, "initial_cs", None),
                   (2, "address_of_relocation_table", "offset"), (2, "overlay_number", None),
                   (2, "reserved_words_1", None, 4), (2, "oem_identifier", None), (2, "oem_information", None),
                   (2, "reserved_words_2", None, 10), (4, "address_of_new_exe_header", "offset")),
     "files": [("saferwall/pe", None, r"\.(dll|exe|sys)$", "mz"),
               (BOT[0], BOT[1], r"^Lib/site-packages/setuptools/.*\.exe$", "mz"),
               (BOT[0], BOT[1], r"^DLLs/[^/]*\.pyd$", "mz")]},
    {"id": "zip", "kind": "archive", "game": False, "endian": "le",
     "truth": gallery("archive/zip.ksy", "the first section: magic 'PK', section_type 0x0403, local_file_header"),
     "fields": seq((2, "magic", "magic"), (2, "section_type", None), (2, "version", None), (2, "flags", None),
                   (2, "compression_method", None), (2, "file_mod_time", None), (2, "file_mod_date", None),
                   (4, "crc32", None), (4, "len_body_compressed", "size"), (4, "len_body_uncompressed", None),
                   (2, "len_file_name", "size"), (2, "len_extra", "size")),
     "files": [("pypa/pip", None, r"\.whl$", "pk34")]},
    {"id": "gzip", "kind": "archive", "game": False, "endian": "le", "truth": gallery("archive/gzip.ksy"),
     "fields": seq((2, "magic", "magic"), (1, "compression_method", None), (1, "flags", None), (4, "mtime", None),
                   (1, "extra_flags", None), (1, "os", None)),
     "files": [("pypa/pip", None, r"\.gz$", "gz"), ("libxmp/libxmp", None, r"\.gz$", "gz")]},
    {"id": "xar", "kind": "archive", "game": False, "endian": "be", "truth": gallery("archive/xar.ksy"),
     "fields": seq((4, "magic", "magic"), (2, "len_header", "size"), (2, "version", None),
                   (8, "len_toc_compressed", "size"), (8, "toc_length_uncompressed", None),
                   (4, "checksum_algorithm", None)),
     "files": [("kaitai-io/kaitai_struct_samples", None, r"^archive/xar/.*\.xar$")]},
    # ---------------------------------------------------------------- game formats
    {"id": "doom_wad", "kind": "archive", "game": True, "endian": "le", "truth": gallery("game/doom_wad.ksy"),
     "fields": seq((4, "magic", "magic"), (4, "num_index_entries", "count"), (4, "index_offset", "offset")),
     "files": [("fragglet/wadptr", None, r"\.wad$"), ("MTrop/DoomStruct", None, r"\.wad$")]},
    {"id": "nes_ines", "kind": "rom", "game": True, "endian": "le", "truth": gallery("firmware/ines.ksy"),
     "fields": seq((4, "magic", "magic"), (1, "len_prg_rom", "size"), (1, "len_chr_rom", "size"), (1, "f6", None),
                   (1, "f7", None), (1, "len_prg_ram", None), (1, "f9", None), (1, "f10", None),
                   (5, "reserved", None)),
     "files": [("christopherpow/nes-test-roms", None, r"\.nes$", "ines")]},
    {"id": "gb_rom", "kind": "rom", "game": True, "endian": "le",
     "truth": reader("mgba-emu/mgba", MGBA, "include/mgba/internal/gb/gb.h", "struct GBCartridge (read at "
                     "ROM offset 0x100; the 256 bytes before it are the restart and interrupt vectors' code)"),
     "fields": [{"offset": 0, "width": 256, "id": "vectors", "role": None}] + seq(
         (4, "entry", None), (48, "logo", "magic"), (11, "title_short", None), (4, "maker", None), (1, "cgb", None),
         (2, "licensee", None), (1, "sgb", None), (1, "type", None), (1, "rom_size", None), (1, "ram_size", None),
         (1, "region", None), (1, "old_licensee", None), (1, "version", None), (1, "header_checksum", None),
         (2, "global_checksum", None), at=256),
     "files": [("retrio/gb-test-roms", None, r"\.gb$")]},
    {"id": "gba_rom", "kind": "rom", "game": True, "endian": "le",
     "truth": reader("mgba-emu/mgba", MGBA, "include/mgba/internal/gba/gba.h", "struct GBACartridge"),
     "fields": seq((4, "entry", None), (156, "logo", "magic"), (12, "title", None), (4, "id", None),
                   (2, "maker", None), (1, "type", None), (1, "unit", None), (1, "device", None),
                   (1, "reserved", None, 7), (1, "version", None), (1, "checksum", None)),
     "files": [("jsmolka/gba-tests", None, r"\.gba$")]},
    {"id": "nsf", "kind": "audio", "game": True, "endian": "le",
     "truth": reader("libgme/game-music-emu", GME, "gme/Nsf_Emu.h", "Nsf_Emu::header_t (0x80 bytes)"),
     "fields": seq((5, "tag", "magic"), (1, "vers", None), (1, "track_count", "count"), (1, "first_track", None),
                   (2, "load_addr", None), (2, "init_addr", None), (2, "play_addr", None), (32, "game", None),
                   (32, "author", None), (32, "copyright", None), (2, "ntsc_speed", None), (1, "banks", None, 8),
                   (2, "pal_speed", None), (1, "speed_flags", None), (1, "chip_flags", None),
                   (4, "unused", None)),
     "files": [("christopherpow/nes-test-roms", None, r"(?i)\.nsf$"), ("libgme/game-music-emu", None, r"\.nsf$")]},
    {"id": "magicavoxel_vox", "kind": "model", "game": True, "endian": "le",
     "truth": gallery("media/magicavoxel_vox.ksy", "magic, version, the MAIN chunk's header (chunk sizes "
                      "are sizes: num_bytes_of_chunk_content / num_bytes_of_children_chunks)"),
     "fields": seq((4, "magic", "magic"), (4, "version", None), (4, "main_chunk_id", None),
                   (4, "main_num_bytes_of_chunk_content", "size"), (4, "main_num_bytes_of_children_chunks", "size")),
     "files": [("ephtracy/voxel-model", None, r"\.vox$", "vox"), ("vengi-voxel/vengi", None, r"^data/.*\.vox$", "vox"),
               ("kaitai-io/kaitai_struct_samples", None, r"\.vox$", "vox")]},
    {"id": "dds", "kind": "texture", "game": True, "endian": "le",
     "truth": reader("python-pillow/Pillow", PILLOW, "src/PIL/DdsImagePlugin.py", "DdsImageFile._open: magic, "
                     "header_size, 3I flags/height/width, 3I pitch/depth/mipmaps, 11I reserved, 4I pfsize/pfflags/"
                     "fourcc/bitcount, 4I masks; the last 20 bytes (read, not parsed by _open) as _save "
                     "writes them: 5I caps"),
     "fields": seq((4, "magic", "magic"), (4, "header_size", "size"), (4, "flags", None), (4, "height", None),
                   (4, "width", None), (4, "pitch", None), (4, "depth", None), (4, "mipmaps", None),
                   (4, "reserved", None, 11), (4, "pfsize", None), (4, "pfflags", None), (4, "fourcc", None),
                   (4, "bitcount", None), (4, "masks", None, 4), (4, "caps", None, 5)),
     "files": [("python-pillow/Pillow", None, r"^Tests/images/[^/]*\.dds$")]},
    {"id": "aseprite", "kind": "sprite animation", "game": True, "endian": "le",
     "truth": reader("vengi-voxel/vengi", VENGI, "src/modules/voxelformat/external/cute_aseprite.h",
                     "cute_aseprite's file header (s_read_* from 'File size' to the 84 reserved bytes) and the first "
                     "frame's header (every file has a frame)"),
     "fields": seq((4, "file_size", "file_size"), (2, "magic", "magic"), (2, "frame_count", "count"),
                   (2, "w", None), (2, "h", None), (2, "bpp", None), (4, "flags", None), (2, "speed", None),
                   (4, "zero", None, 2), (1, "transparent_index", None), (3, "skip", None),
                   (2, "number_of_colors", None), (1, "pixel_w", None), (1, "pixel_h", None), (2, "grid_x", None),
                   (2, "grid_y", None), (2, "grid_w", None), (2, "grid_h", None), (84, "reserved", None),
                   (4, "frame_size", "size"), (2, "frame_magic", None), (2, "chunk_count", "count"),
                   (2, "duration", None), (2, "frame_reserved", None), (4, "new_chunk_count", "count")),
     "files": [("aseprite/tests", None, r"\.aseprite$"), ("vengi-voxel/vengi", None, r"\.(ase|aseprite)$")]},
    {"id": "vxm", "kind": "model", "game": True, "endian": "le",
     "truth": reader("vengi-voxel/vengi", VENGI, "src/modules/voxelformat/private/sandbox/VXMFormat.cpp",
                     "VXMFormat::loadGroupsPalette, version 12 ('VXMC'): magic, size x/y/z, normalized pivot, "
                     "surface flag (then variable)"),
     "fields": seq((4, "magic", "magic"), (4, "size", None, 3), (4, "pivot", None, 3), (1, "surface", None)),
     "files": [("vengi-voxel/vengi", None, r"\.vxm$", "vxmc")]},
    {"id": "qb", "kind": "model", "game": True, "endian": "le",
     "truth": reader("vengi-voxel/vengi", VENGI, "src/modules/voxelformat/private/qubicle/QBFormat.cpp",
                     "QBFormat::loadGroupsRGBA: version, colorFormat, zAxisOrientation, compressed, "
                     "visibilityMaskEncoded, numMatrices; then the first matrix's nameLength"),
     "fields": seq((4, "version", None), (4, "color_format", None), (4, "z_axis_orientation", None),
                   (4, "compressed", None), (4, "visibility_mask_encoded", None), (4, "num_matrices", "count"),
                   (1, "name_length", "size")),
     "files": [("vengi-voxel/vengi", None, r"\.qb$")]},
    {"id": "cnc_vxl", "kind": "model", "game": True, "endian": "le",
     "truth": reader("vengi-voxel/vengi", VENGI, "src/modules/voxelformat/private/commandconquer/VXLFormat.cpp",
                     "VXLFormat::readHeader: filetype (16), paletteCount, layerCount, layerInfoCount, dataSize, "
                     "then the first palette: start/end remap and 256 x RGB, read byte by byte"),
     "fields": seq((16, "filetype", "magic"), (4, "palette_count", "count"), (4, "layer_count", "count"),
                   (4, "layer_info_count", "count"), (4, "data_size", "size"), (1, "start_palette_remap", None),
                   (1, "end_palette_remap", None), (1, "palette", None, 768)),
     "files": [("vengi-voxel/vengi", None, r"\.vxl$", "cncvxl")]},
]


# ---------------------------------------------------------------- the fresh set (--fresh)
# Formats nobody on the project has inferred or tuned on (none of FORMATS), written to
# infer_fresh.json: every format in one half, "fresh", scored only once the rules are frozen.
OUT_FRESH = HERE / "infer_fresh.json"
FRESH_MADE = "2026-12-06"
OPENRA = "b62c883951939e74e01729b96cab7e2cd1f79b5e"
EA_CNC = "f1f0d42bc2dcd06d5d1df943c6150ab34bf307ae"
VRF = "f503e9ff7103dc4b5ed2706e0fce06e67f1323b3"
_OPENRA_BITS = r"^mods/(cnc|ra|d2k|ts)/(bits|maps)/"


def _imf() -> list[dict]:
    out = seq((32, "name", None), (2, "len", "count"), (2, "pat", "count"), (2, "ins", "count"), (2, "flg", None),
              (8, "unused1", None), (1, "tpo", None), (1, "bpm", None), (1, "vol", None), (1, "amp", None),
              (8, "unused2", None), (4, "magic", "magic"))
    for i in range(32):
        out += seq((12, f"chn[{i}].name", None), (1, f"chn[{i}].chorus", None), (1, f"chn[{i}].reverb", None),
                   (1, f"chn[{i}].pan", None), (1, f"chn[{i}].status", None), at=out[-1]["offset"] + out[-1]["width"])
    return out + seq((256, "pos", None), at=out[-1]["offset"] + out[-1]["width"])


FRESH: list[dict] = [
    # ---------------------------------------------------------------- game formats
    {"id": "westwood_shp", "kind": "sprite", "game": True, "endian": "le",
     "truth": reader("electronicarts/CnC_Remastered_Collection", EA_CNC, "REDALERT/2KEYFRAM.CPP",
                     "KeyFrameHeaderType (frames, x, y, width, height, largest_frame_size, flags) and the frame "
                     "offsets after it (Get_Build_Frame_X...: offset[0] & 0xFFFFFF the frame's data, offset[0] >> 24 "
                     "its flags)",
                     "the C&C / Red Alert / Dune 2000 SHP (keyframe) sprite, with the first frame's entry (every "
                     "file has frames >= 1): its first u32 is read as one and split, low 24 bits the offset, high 8 "
                     "the format; then the reference frame's offset and format as OpenRA/OpenRA (commit "
                     + OPENRA + ") OpenRA.Mods.Cnc/SpriteLoaders/ShpTDLoader.cs ImageHeader reads them (u16, u16). "
                     "Files: those ShpTDLoader.IsShpTD takes"),
     "fields": seq((2, "frames", "count"), (2, "x", None), (2, "y", None), (2, "width", None), (2, "height", None),
                   (2, "largest_frame_size", None), (2, "flags", None), (3, "frame0.offset", "offset"),
                   (1, "frame0.format", None), (2, "frame0.ref_offset", None), (2, "frame0.ref_format", None)),
     "files": [("OpenRA/OpenRA", OPENRA, _OPENRA_BITS + r".*\.shp$", "shp_td")]},
    {"id": "westwood_shp_ts", "kind": "sprite", "game": True, "endian": "le",
     "truth": reader("OpenRA/OpenRA", OPENRA, "OpenRA.Mods.Common/SpriteLoaders/ShpTSLoader.cs",
                     "IsShpTS / ParseFrames / ShpTSFrame: zero word, width, height, frame count; per frame x, y, "
                     "width, height, format, 11 bytes skipped, file offset",
                     "the Tiberian Sun SHP sprite with the first frame's header (every file has frames); the 11 "
                     "bytes the reader skips are one field"),
     "fields": seq((2, "zero", "magic"), (2, "width", None), (2, "height", None), (2, "frame_count", "count"),
                   (2, "frame0.x", None), (2, "frame0.y", None), (2, "frame0.width", None), (2, "frame0.height", None),
                   (1, "frame0.format", None), (11, "frame0.skipped", None), (4, "frame0.file_offset", "offset")),
     "files": [("OpenRA/OpenRA", OPENRA, _OPENRA_BITS + r".*\.shp$", "shp_ts")]},
    {"id": "westwood_tmp_td", "kind": "tiles", "game": True, "endian": "le",
     "truth": reader("electronicarts/CnC_Remastered_Collection", EA_CNC, "TIBERIANDAWN/WIN32LIB/TILE.H",
                     "IControl_Type, 'C&C version of struct' (Width, Height, Count, Allocated, Size, Icons, Palettes, "
                     "Remaps, TransFlag, Map)",
                     "Tiberian Dawn terrain icon sets (.tem .win .des .sno .jun). OpenRA/OpenRA (commit " + OPENRA
                     + ") OpenRA.Mods.Cnc/SpriteLoaders/TmpTDLoader.cs checks Palettes == 0 and Remaps == 0x0D1AFFFF "
                     "(magic) and reads Icons, TransFlag and Map as the offsets of the icons, the index end and start; "
                     "Size is the file's size"),
     "fields": seq((2, "width", None), (2, "height", None), (2, "count", "count"), (2, "allocated", None),
                   (4, "size", "file_size"), (4, "icons", "offset"), (4, "palettes", "magic"),
                   (4, "remaps", "magic"), (4, "trans_flag", "offset"), (4, "map", "offset")),
     "files": [("OpenRA/OpenRA", OPENRA, r"^mods/cnc/bits/.*\.(tem|win|des|sno|jun|int)$", "tmp_td")]},
    {"id": "westwood_tmp_ra", "kind": "tiles", "game": True, "endian": "le",
     "truth": reader("electronicarts/CnC_Remastered_Collection", EA_CNC, "REDALERT/WIN32LIB/TILE.H",
                     "IControl_Type, 'RA version of struct' (Width, Height, Count, Allocated, MapWidth, MapHeight, "
                     "Size, Icons, Palettes, Remaps, TransFlag, ColorMap, Map)",
                     "Red Alert terrain icon sets (.tem .sno .int .des). OpenRA/OpenRA (commit " + OPENRA
                     + ") OpenRA.Mods.Cnc/SpriteLoaders/TmpRALoader.cs checks Palettes == 0 and the upper half of "
                     "Remaps == 0x2c73 (magic) and reads Icons, TransFlag and Map as offsets; Size is the file's size"),
     "fields": seq((2, "width", None), (2, "height", None), (2, "count", "count"), (2, "allocated", None),
                   (2, "map_width", None), (2, "map_height", None), (4, "size", "file_size"), (4, "icons", "offset"),
                   (4, "palettes", "magic"), (4, "remaps", "magic"), (4, "trans_flag", "offset"),
                   (4, "color_map", "offset"), (4, "map", "offset")),
     "files": [("OpenRA/OpenRA", OPENRA, r"^mods/ra/bits/.*\.(tem|sno|int|des)$", "tmp_ra")]},
    {"id": "westwood_aud", "kind": "audio", "game": True, "endian": "le",
     "truth": reader("OpenRA/OpenRA", OPENRA, "OpenRA.Mods.Cnc/FileFormats/AudReader.cs",
                     "AudReader.LoadSound (sample rate, data size, output size, flags, format) and AudChunk.Read for "
                     "the first chunk (compressed size, output size, 0xdeaf)",
                     "Westwood AUD sound; the header as electronicarts/CnC_Remastered_Collection (commit " + EA_CNC
                     + ") REDALERT/WIN32LIB/AUDIO.H AUDHeaderType (Rate, Size, UncompSize, Flags, Compression); "
                     "every file has a chunk"),
     "fields": seq((2, "rate", None), (4, "size", "size"), (4, "uncomp_size", None), (1, "flags", None),
                   (1, "compression", None), (2, "chunk0.compressed_size", "size"), (2, "chunk0.output_size", None),
                   (4, "chunk0.magic", "magic")),
     "files": [("OpenRA/OpenRA", OPENRA, r"(?i)^mods/.*\.aud$", "aud")]},
    {"id": "openra_map_bin", "kind": "tiles", "game": True, "endian": "le",
     "truth": reader("OpenRA/OpenRA", OPENRA, "OpenRA.Game/Map/Map.cs",
                     "BinaryDataHeader (format 2: format, width, height, tiles, heights and resources offsets; "
                     "SaveBinaryData writes the same)", "OpenRA's map tile data (map.bin of each map folder), "
                     "format 2 files only"),
     "fields": seq((1, "format", None), (2, "width", None), (2, "height", None), (4, "tiles_offset", "offset"),
                   (4, "heights_offset", "offset"), (4, "resources_offset", "offset")),
     "files": [("OpenRA/OpenRA", OPENRA, r"^mods/[^/]+/maps/.*/map\.bin$", "mapbin2")]},
    {"id": "source2_resource", "kind": "resource container", "game": True, "endian": "le",
     "truth": reader("ValveResourceFormat/ValveResourceFormat", VRF, "ValveResourceFormat/Resource/Resource.cs",
                     "Resource.Read: FileSize, HeaderVersion (12, checked), Version, block offset, block count; "
                     "then per block: type, offset (from its own position), size",
                     "Source 2 compiled resources (*_c of Tests/Files: models, materials, sounds, particles...; not "
                     "Tests/Files/Textures, whose FileSize leaves out the pixel data), with the first block entry "
                     "(every file has blocks). FileSize is the file's size in all files chosen but one sound "
                     "(death_taser_m_05.vsnd_c), whose FileSize leaves out its sound data"),
     "fields": seq((4, "file_size", "file_size"), (2, "header_version", "magic"), (2, "version", None),
                   (4, "block_offset", "offset"), (4, "block_count", "count"), (4, "block0.type", None),
                   (4, "block0.offset", "offset"), (4, "block0.size", "size")),
     "files": [("ValveResourceFormat/ValveResourceFormat", VRF, r"^Tests/Files/[^/]*_c$", "s2res")]},
    {"id": "sandbox_vxa", "kind": "model animation", "game": True, "endian": "le",
     "truth": reader("vengi-voxel/vengi", VENGI, "src/modules/voxelformat/private/sandbox/VXAFormat.cpp",
                     "VXAFormat::loadGroups: magic read byte by byte ('VXA' checked, the 4th byte the version digit), "
                     "md5 as two readUInt64; then the animation id, a zero-terminated string (variable)",
                     "The Sandbox / VoxEdit animation"),
     "fields": seq((3, "magic", "magic"), (1, "version", None), (8, "md5[0]", None), (8, "md5[1]", None)),
     "files": [("vengi-voxel/vengi", None, r"\.vxa$", "vxa")]},
    # ---------------------------------------------------------------- tracker modules
    {"id": "imf", "kind": "audio", "game": False, "endian": "le",
     "truth": reader("libxmp/libxmp", LIBXMP, "src/loaders/imf_load.c",
                     "imf_load: struct imf_header read field by field (the channels' chorus, reverb, pan, status in "
                     "the order read; the order list read as one 256-byte block)", "Imago Orpheus modules"),
     "fields": _imf(),
     "files": [("libxmp/libxmp", None, r"^test-dev/data/(m/)?[^/]*\.imf$", "imf")]},
    {"id": "liq", "kind": "audio", "game": False, "endian": "le",
     "truth": reader("libxmp/libxmp", LIBXMP, "src/loaders/liq_load.c",
                     "liq_load: struct liq_header read field by field (the 0x1a byte read and ignored)",
                     "Liquid Tracker modules of version >= 1.00 (the older ones keep the header size where len is)"),
     "fields": seq((14, "magic", "magic"), (30, "name", None), (20, "author", None), (1, "x1a", None),
                   (20, "tracker", None), (2, "version", None), (2, "speed", None), (2, "bpm", None),
                   (2, "low", None), (2, "high", None), (2, "chn", "count"), (4, "flags", None), (2, "pat", "count"),
                   (2, "ins", "count"), (2, "len", "count"), (2, "hdrsz", "size")),
     "files": [("libxmp/libxmp", None, r"^test-dev/data/(m/)?[^/]*\.liq$", "liq1")]},
]


def _filter(kind: str | None, data: bytes) -> bool:
    """Content checks that keep one variant of a format (the truth's)."""
    if b"\xef\xbf\xbd" in data[:4096]:  # U+FFFD: a binary file once decoded and re-encoded as text (mangled)
        return False
    if kind is None:
        return True
    return {
        "mod31": lambda d: len(d) > 1084 and d[1080:1084] == b"M.K.",
        "mmd": lambda d: d[:3] == b"MMD" and d[3:4] in b"0123",
        "elf64le": lambda d: d[:4] == b"\x7fELF" and d[4] == 2 and d[5] == 1,
        "mz": lambda d: d[:2] == b"MZ",
        "pk34": lambda d: d[:4] == b"PK\x03\x04",
        "gz": lambda d: d[:2] == b"\x1f\x8b",
        "ines": lambda d: d[:4] == b"NES\x1a",
        "vox": lambda d: d[:4] == b"VOX ",
        "xm": lambda d: d[:17] == b"Extended Module: ",
        "vxmc": lambda d: d[:4] == b"VXMC",
        "cncvxl": lambda d: d[:16] == b"Voxel Animation\x00",
        "shp_td": _shp_td, "shp_ts": _shp_ts,
        "tmp_td": lambda d: len(d) > 32 and _u(d, 16, 4) == 0 and _u(d, 20, 4) == 0x0D1AFFFF,
        "tmp_ra": lambda d: len(d) > 40 and _u(d, 20, 4) == 0 and _u(d, 26, 2) == 0x2C73,
        "aud": lambda d: len(d) > 20 and d[11] in (1, 99) and _u(d, 16, 4) == 0xDEAF,
        "mapbin2": lambda d: len(d) > 17 and d[0] == 2,
        "s2res": lambda d: len(d) > 28 and _u(d, 4, 2) == 12 and _u(d, 12, 4) > 0,
        "imf": lambda d: d[60:64] == b"IM10",
        "vxa": lambda d: d[:3] == b"VXA",
        "liq1": lambda d: d[:14] == b"Liquid Module:" and d[86] != 0,
    }[kind](data)


def _u(d: bytes, at: int, n: int) -> int:
    return int.from_bytes(d[at:at + n], "little")


def _shp_td(d: bytes) -> bool:
    """OpenRA's ShpTDLoader.IsShpTD: frames > 0, the offset after the last frame's is the file's size, format."""
    n = _u(d, 0, 2)
    end = 14 + 8 * n
    return n > 0 and end + 4 <= len(d) and _u(d, end, 4) == len(d) and d[17] in (0x20, 0x40, 0x80)


def _shp_ts(d: bytes) -> bool:
    """OpenRA's ShpTSLoader.IsShpTS, in short: a zero word, frames > 0, their headers inside the file."""
    n = _u(d, 6, 2)
    return len(d) > 32 and _u(d, 0, 2) == 0 and n > 0 and 8 + 24 * n <= len(d) and d[16] < 4


def _git(gd: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gd), *args], capture_output=True, check=True).stdout


def _head(gd: Path) -> str:
    return _git(gd, "rev-parse", "HEAD").decode().strip()


def _tree(gd: Path, commit: str) -> list[tuple[str, int, str]]:
    out = []
    for line in _git(gd, "ls-tree", "-r", "-l", commit).decode("utf-8", "replace").splitlines():
        meta, path = line.split("\t", 1)
        _, kind, blob, size = meta.split()
        if kind == "blob" and size.isdigit():  # "BAD" / "-": an object the snapshot lacks
            out.append((blob, int(size), path))
    return out


def select(fmt: dict, mirrors: Path) -> list[dict]:
    out, seen = [], set()
    for repo, commit, pattern, *flt in fmt["files"]:
        gd = mirrors / repo.replace("/", "+") / "repo"
        if not gd.is_dir():
            print(f"  {fmt['id']}: no mirror of {repo}", file=sys.stderr)
            continue
        commit = commit or _head(gd)
        rx = re.compile(pattern)
        for blob, size, path in sorted(_tree(gd, commit), key=lambda t: t[2]):
            if not rx.search(path) or FUZZ.search(path.rsplit("/", 1)[-1]) or not 0 < size < MAX_SIZE:
                continue
            try:
                data = _git(gd, "cat-file", "blob", blob)
            except subprocess.CalledProcessError:
                continue
            sha = hashlib.sha256(data).hexdigest()
            if sha in seen or not _filter(flt[0] if flt else None, data):
                continue
            seen.add(sha)
            out.append({"repository": repo, "commit": commit, "path": path, "size": size, "sha256": sha})
    out.sort(key=lambda e: (e["repository"], e["path"]))
    if len(out) > MAX_FILES:  # a fixed, spread-out choice rather than the first names of one folder
        random.Random(f"{SEED}:{fmt['id']}").shuffle(out)
        out = sorted(out[:MAX_FILES], key=lambda e: (e["repository"], e["path"]))
    return out


def _compact(text: str) -> str:
    """One line per field and per file, the manifest's nested lists and objects otherwise indented."""
    def one(m: re.Match) -> str:
        return "{" + ", ".join(x.strip().rstrip(",") for x in m.group(1).strip().splitlines()) + "}"
    return re.sub(r"\{\n((?:\s+\"[a-z0-9_]+\": [^\n{}\[\]]+\n)+)\s+\}", one, text)


def check_fields(fmt: dict) -> None:
    at = 0
    for f in fmt["fields"]:
        assert f["offset"] == at, (fmt["id"], f)
        at += f["width"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--out", type=Path, help=f"default: {OUT.name}, with --fresh {OUT_FRESH.name}")
    ap.add_argument("--fresh", action="store_true",
                    help="the held-out set (FRESH, formats nobody tuned on), all in one half 'fresh'")
    a = ap.parse_args(argv)
    out = a.out or (OUT_FRESH if a.fresh else OUT)
    known = {f["id"] for f in FORMATS}
    assert not known & {f["id"] for f in FRESH}, "a fresh format is in the corpus already"
    formats, files = [], []
    for fmt in FRESH if a.fresh else FORMATS:
        check_fields(fmt)
        chosen = select(fmt, a.mirrors)
        print(f"{fmt['id']:<16} {len(chosen):>3} files  {len(fmt['fields']):>4} fields  "
              f"{fmt['fields'][-1]['offset'] + fmt['fields'][-1]['width']:>5} B")
        if len(chosen) < 5:
            print(f"  {fmt['id']}: only {len(chosen)} files: left out", file=sys.stderr)
            continue
        formats.append({k: fmt[k] for k in ("id", "kind", "game", "endian", "truth")}
                       | {"header_bytes": fmt["fields"][-1]["offset"] + fmt["fields"][-1]["width"],
                          "fields": fmt["fields"]})
        files += [{"format": fmt["id"], **e} for e in chosen]
    ids = sorted(f["id"] for f in formats)
    if a.fresh:
        split = {"method": "none: every format is fresh (one half, 'fresh')", "made": FRESH_MADE,
                 "note": f"made on {FRESH_MADE} from main 6bfaefa, after the rules of animre/infer were chosen on "
                         f"{OUT.name}; no rule or threshold was chosen on these formats, and nobody on the project "
                         "had inferred them before: quote their figures as formats no rule was chosen for, "
                         "and do not tune on them",
                 "fresh": ids}
        about = ("A held-out set of real formats for benchmarks/infer_general.py (--manifest this file), none of "
                 f"them in {OUT.name}: per format, its truth layout (the fixed header as its reader defines it) and "
                 "its files; assembled by benchmarks/infer_corpus.py --manifest, made by "
                 "benchmarks/infer_corpus_make.py --fresh")
    else:
        order = ids[:]
        random.Random(SEED).shuffle(order)
        half = (len(order) + 1) // 2
        split = {"seed": SEED, "method": "random.Random(seed).shuffle(sorted ids); first ceil(n/2) = tuning",
                 "tuning": sorted(order[:half]), "test": sorted(order[half:])}
        about = ("Real files of public repositories for benchmarks/infer_general.py: per format, its truth "
                 "layout (the fixed header as its reader defines it) and its files; assembled by "
                 "benchmarks/infer_corpus.py, made by benchmarks/infer_corpus_make.py")
    doc = {"about": about, "split": split, "formats": formats, "files": files}
    out.write_text(_compact(json.dumps(doc, indent=1)) + "\n")
    n_game = sum(f["game"] for f in formats)
    print(f"{len(formats)} formats ({n_game} game), {len(files)} files -> {out}; "
          + ", ".join(f"{k} {len(v)}" for k, v in split.items() if isinstance(v, list)))
    return 0

if __name__ == "__main__":
    sys.exit(main())
