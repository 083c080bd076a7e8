# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Flc(KaitaiStruct):
    """FLI (magic 0xAF11) and FLC (0xAF12) animations: a 128-byte header, an
    optional prefix chunk (0xF100), then frame chunks (0xF1FA) up to the end of
    the file, each holding sub-chunks (palettes, compressed pixels, a postage
    stamp). Civilization III unit animations are FLCs whose reserved header area
    at 0x58 holds the 28-byte FlicAnimHeader (directions, frames per direction,
    clipping box inside the 240 x 240 sprite); `is_flicanim` tells them from
    plain files.
    
    Everything is bounded by its container, because real files break the
    declared sizes: a frame may declare one more sub-chunk than it holds
    (sub-chunks are walked until the frame's bytes end), original Civ3 palette
    chunks declare the size 0xCDCDCDCD (the palette is then read by its packets
    from the frame's bytes; the declared size is kept in `len_chunk`), and the
    last chunk of a file may lack its final padding byte (hopper.fli declares
    one byte more than it has). A chunk that runs further past its container is
    an error. Compressed pixel data (BYTE_RUN, DELTA_FLC, DELTA_FLI, BLACK, COPY)
    is kept as raw bytes; animre.decode.flc decodes it.
    
    Tables (animre.flatten): `flc_files` (one row per file), `flc_frames`
    (one row per frame chunk, key `chunk_index` = the chunk's index among all
    top-level chunks, so a prefix chunk counts) and `flc_chunks` (one row per
    sub-chunk of a frame, keys `chunk_index` and `chunk`). Palette packets and
    the postage stamp's image are left out of the tables.
    
    .. seealso::
       Civilization III FlicAnim community notes (FlicAnimHeader, FLC header fields, palette and SS2 bugs)
    
    
    .. seealso::
       FLIC format description by Jim Kent / Autodesk (Animator Pro file formats)
    
    
    .. seealso::
       (FLIC file format) - https://www.compuphase.com/flic.htm
    """

    class ChunkType(IntEnum):
        prefix = 61696
        frame = 61946

    class SubChunkType(IntEnum):
        color_256 = 4
        delta_flc = 7
        color_64 = 11
        delta_fli = 12
        black = 13
        byte_run = 15
        copy = 16
        pstamp = 18
    SEQ_FIELDS = ["header", "chunks"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Flc, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['header']['start'] = self._io.pos()
        self._raw_header = self._io.read_bytes(128)
        _io__raw_header = KaitaiStream(BytesIO(self._raw_header))
        _animre_place(_io__raw_header, self._io, self._debug['header']['start'], None)
        self.header = Flc.FlicHeader(_io__raw_header, self, self._root)
        self.header._read()
        self._debug['header']['end'] = self._io.pos()
        self._debug['chunks']['start'] = self._io.pos()
        self._debug['chunks']['arr'] = []
        self.chunks = []
        i = 0
        while not self._io.is_eof():
            self._debug['chunks']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['chunks']['arr'], self._io)
            _t_chunks = Flc.Chunk(self._io, self, self._root)
            try:
                _t_chunks._read()
            finally:
                self.chunks.append(_t_chunks)
            self._debug['chunks']['arr'][len(self.chunks) - 1]['end'] = self._io.pos()
            i += 1

        self._debug['chunks']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        for i in range(len(self.chunks)):
            pass
            self.chunks[i]._fetch_instances()


    class Chunk(KaitaiStruct):
        """A top-level chunk - u4 size (including this 6-byte header), u2 type, body."""
        SEQ_FIELDS = ["len_chunk", "chunk_type", "body"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Flc.Chunk, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_chunk']['start'] = self._io.pos()
            self.len_chunk = self._io.read_u4le()
            self._debug['len_chunk']['end'] = self._io.pos()
            _ = self.len_chunk
            if not  ((_ >= 6) and (_ - 6 <= ((self._io.size() - self._io.pos()) - 2) + 1)) :
                raise kaitaistruct.ValidationExprError(self.len_chunk, self._io, u"/types/chunk/seq/0")
            self._debug['chunk_type']['start'] = self._io.pos()
            self.chunk_type = KaitaiStream.resolve_enum(Flc.ChunkType, self._io.read_u2le())
            self._debug['chunk_type']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            _on = self.chunk_type
            if _on == Flc.ChunkType.frame:
                pass
                self._raw_body = self._io.read_bytes(self.len_body)
                _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
                _animre_place(_io__raw_body, self._io, self._debug['body']['start'], None)
                self.body = Flc.FrameBody(_io__raw_body, self, self._root)
                self.body._read()
            else:
                pass
                self.body = self._io.read_bytes(self.len_body)
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _on = self.chunk_type
            if _on == Flc.ChunkType.frame:
                pass
                self.body._fetch_instances()
            else:
                pass

        @property
        def is_truncated(self):
            """True when the declared size runs past the end of the file (by one byte at most)."""
            if hasattr(self, '_m_is_truncated'):
                return self._m_is_truncated

            self._m_is_truncated = self.len_chunk - 6 > self.len_body
            return getattr(self, '_m_is_truncated', None)

        @property
        def len_body(self):
            """Bytes of the body actually present (the declared size, or up to the end of the file)."""
            if hasattr(self, '_m_len_body'):
                return self._m_len_body

            self._m_len_body = (self._io.size() - self._io.pos() if self.len_chunk - 6 > self._io.size() - self._io.pos() else self.len_chunk - 6)
            return getattr(self, '_m_len_body', None)


    class FlicHeader(KaitaiStruct):
        SEQ_FIELDS = ["len_file", "magic", "num_frames", "width", "height", "depth", "flags", "speed", "reserved_14", "created", "creator", "updated", "updater", "aspect_x", "aspect_y", "reserved_2a", "ofs_frame1", "ofs_frame2", "flicanim", "reserved_74"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Flc.FlicHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 6, _animre_run_0)
            if _animre_r is None:
                self._debug['len_file']['start'] = self._io.pos()
                self.len_file = self._io.read_u4le()
                self._debug['len_file']['end'] = self._io.pos()
                self._debug['magic']['start'] = self._io.pos()
                self.magic = self._io.read_u2le()
                self._debug['magic']['end'] = self._io.pos()
            else:
                _animre_p, (self.len_file, self.magic,) = _animre_r
                _animre_d = self._debug
                _animre_d['len_file'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['magic'] = {'start': _animre_p + 4, 'end': _animre_p + 6}
            if not  ((self.magic == 44817) or (self.magic == 44818)) :
                raise kaitaistruct.ValidationNotAnyOfError(self.magic, self._io, u"/types/flic_header/seq/1")
            _animre_r = _animre_run(self._io, 36, _animre_run_1)
            if _animre_r is None:
                self._debug['num_frames']['start'] = self._io.pos()
                self.num_frames = self._io.read_u2le()
                self._debug['num_frames']['end'] = self._io.pos()
                self._debug['width']['start'] = self._io.pos()
                self.width = self._io.read_u2le()
                self._debug['width']['end'] = self._io.pos()
                self._debug['height']['start'] = self._io.pos()
                self.height = self._io.read_u2le()
                self._debug['height']['end'] = self._io.pos()
                self._debug['depth']['start'] = self._io.pos()
                self.depth = self._io.read_u2le()
                self._debug['depth']['end'] = self._io.pos()
                self._debug['flags']['start'] = self._io.pos()
                self.flags = self._io.read_u2le()
                self._debug['flags']['end'] = self._io.pos()
                self._debug['speed']['start'] = self._io.pos()
                self.speed = self._io.read_u4le()
                self._debug['speed']['end'] = self._io.pos()
                self._debug['reserved_14']['start'] = self._io.pos()
                self.reserved_14 = self._io.read_u2le()
                self._debug['reserved_14']['end'] = self._io.pos()
                self._debug['created']['start'] = self._io.pos()
                self.created = self._io.read_u4le()
                self._debug['created']['end'] = self._io.pos()
                self._debug['creator']['start'] = self._io.pos()
                self.creator = self._io.read_u4le()
                self._debug['creator']['end'] = self._io.pos()
                self._debug['updated']['start'] = self._io.pos()
                self.updated = self._io.read_u4le()
                self._debug['updated']['end'] = self._io.pos()
                self._debug['updater']['start'] = self._io.pos()
                self.updater = self._io.read_u4le()
                self._debug['updater']['end'] = self._io.pos()
                self._debug['aspect_x']['start'] = self._io.pos()
                self.aspect_x = self._io.read_u2le()
                self._debug['aspect_x']['end'] = self._io.pos()
                self._debug['aspect_y']['start'] = self._io.pos()
                self.aspect_y = self._io.read_u2le()
                self._debug['aspect_y']['end'] = self._io.pos()
            else:
                _animre_p, (self.num_frames, self.width, self.height, self.depth, self.flags, self.speed, self.reserved_14, self.created, self.creator, self.updated, self.updater, self.aspect_x, self.aspect_y,) = _animre_r
                _animre_d = self._debug
                _animre_d['num_frames'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['width'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
                _animre_d['height'] = {'start': _animre_p + 4, 'end': _animre_p + 6}
                _animre_d['depth'] = {'start': _animre_p + 6, 'end': _animre_p + 8}
                _animre_d['flags'] = {'start': _animre_p + 8, 'end': _animre_p + 10}
                _animre_d['speed'] = {'start': _animre_p + 10, 'end': _animre_p + 14}
                _animre_d['reserved_14'] = {'start': _animre_p + 14, 'end': _animre_p + 16}
                _animre_d['created'] = {'start': _animre_p + 16, 'end': _animre_p + 20}
                _animre_d['creator'] = {'start': _animre_p + 20, 'end': _animre_p + 24}
                _animre_d['updated'] = {'start': _animre_p + 24, 'end': _animre_p + 28}
                _animre_d['updater'] = {'start': _animre_p + 28, 'end': _animre_p + 32}
                _animre_d['aspect_x'] = {'start': _animre_p + 32, 'end': _animre_p + 34}
                _animre_d['aspect_y'] = {'start': _animre_p + 34, 'end': _animre_p + 36}
            self._debug['reserved_2a']['start'] = self._io.pos()
            self.reserved_2a = self._io.read_bytes(38)
            self._debug['reserved_2a']['end'] = self._io.pos()
            _animre_r = _animre_run(self._io, 8, _animre_run_2)
            if _animre_r is None:
                self._debug['ofs_frame1']['start'] = self._io.pos()
                self.ofs_frame1 = self._io.read_u4le()
                self._debug['ofs_frame1']['end'] = self._io.pos()
                self._debug['ofs_frame2']['start'] = self._io.pos()
                self.ofs_frame2 = self._io.read_u4le()
                self._debug['ofs_frame2']['end'] = self._io.pos()
            else:
                _animre_p, (self.ofs_frame1, self.ofs_frame2,) = _animre_r
                _animre_d = self._debug
                _animre_d['ofs_frame1'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['ofs_frame2'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
            self._debug['flicanim']['start'] = self._io.pos()
            self.flicanim = Flc.FlicanimHeader(self._io, self, self._root)
            self.flicanim._read()
            self._debug['flicanim']['end'] = self._io.pos()
            self._debug['reserved_74']['start'] = self._io.pos()
            self.reserved_74 = self._io.read_bytes(12)
            self._debug['reserved_74']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.flicanim._fetch_instances()


    class FlicanimHeader(KaitaiStruct):
        """Civ3's FlicAnimHeader, 28 bytes at header offset 0x58 (community notes)."""
        SEQ_FIELDS = ["len_header", "flags", "num_anims", "anim_length", "x_offset", "y_offset", "xs_orig", "ys_orig", "anim_time", "directions"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Flc.FlicanimHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 28, _animre_run_3)
            if _animre_r is None:
                self._debug['len_header']['start'] = self._io.pos()
                self.len_header = self._io.read_u4le()
                self._debug['len_header']['end'] = self._io.pos()
                self._debug['flags']['start'] = self._io.pos()
                self.flags = self._io.read_s4le()
                self._debug['flags']['end'] = self._io.pos()
                self._debug['num_anims']['start'] = self._io.pos()
                self.num_anims = self._io.read_u2le()
                self._debug['num_anims']['end'] = self._io.pos()
                self._debug['anim_length']['start'] = self._io.pos()
                self.anim_length = self._io.read_u2le()
                self._debug['anim_length']['end'] = self._io.pos()
                self._debug['x_offset']['start'] = self._io.pos()
                self.x_offset = self._io.read_u2le()
                self._debug['x_offset']['end'] = self._io.pos()
                self._debug['y_offset']['start'] = self._io.pos()
                self.y_offset = self._io.read_u2le()
                self._debug['y_offset']['end'] = self._io.pos()
                self._debug['xs_orig']['start'] = self._io.pos()
                self.xs_orig = self._io.read_u2le()
                self._debug['xs_orig']['end'] = self._io.pos()
                self._debug['ys_orig']['start'] = self._io.pos()
                self.ys_orig = self._io.read_u2le()
                self._debug['ys_orig']['end'] = self._io.pos()
                self._debug['anim_time']['start'] = self._io.pos()
                self.anim_time = self._io.read_u4le()
                self._debug['anim_time']['end'] = self._io.pos()
                self._debug['directions']['start'] = self._io.pos()
                self.directions = self._io.read_s4le()
                self._debug['directions']['end'] = self._io.pos()
            else:
                _animre_p, (self.len_header, self.flags, self.num_anims, self.anim_length, self.x_offset, self.y_offset, self.xs_orig, self.ys_orig, self.anim_time, self.directions,) = _animre_r
                _animre_d = self._debug
                _animre_d['len_header'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['flags'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
                _animre_d['num_anims'] = {'start': _animre_p + 8, 'end': _animre_p + 10}
                _animre_d['anim_length'] = {'start': _animre_p + 10, 'end': _animre_p + 12}
                _animre_d['x_offset'] = {'start': _animre_p + 12, 'end': _animre_p + 14}
                _animre_d['y_offset'] = {'start': _animre_p + 14, 'end': _animre_p + 16}
                _animre_d['xs_orig'] = {'start': _animre_p + 16, 'end': _animre_p + 18}
                _animre_d['ys_orig'] = {'start': _animre_p + 18, 'end': _animre_p + 20}
                _animre_d['anim_time'] = {'start': _animre_p + 20, 'end': _animre_p + 24}
                _animre_d['directions'] = {'start': _animre_p + 24, 'end': _animre_p + 28}


        def _fetch_instances(self):
            pass


    class FrameBody(KaitaiStruct):
        """Body of a frame chunk (0xF1FA) - a 10-byte frame header, then sub-chunks up to the frame's end."""
        SEQ_FIELDS = ["num_chunks", "delay", "reserved_4", "width", "height", "chunks"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Flc.FrameBody, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 10, _animre_run_4)
            if _animre_r is None:
                self._debug['num_chunks']['start'] = self._io.pos()
                self.num_chunks = self._io.read_u2le()
                self._debug['num_chunks']['end'] = self._io.pos()
                self._debug['delay']['start'] = self._io.pos()
                self.delay = self._io.read_u2le()
                self._debug['delay']['end'] = self._io.pos()
                self._debug['reserved_4']['start'] = self._io.pos()
                self.reserved_4 = self._io.read_u2le()
                self._debug['reserved_4']['end'] = self._io.pos()
                self._debug['width']['start'] = self._io.pos()
                self.width = self._io.read_u2le()
                self._debug['width']['end'] = self._io.pos()
                self._debug['height']['start'] = self._io.pos()
                self.height = self._io.read_u2le()
                self._debug['height']['end'] = self._io.pos()
            else:
                _animre_p, (self.num_chunks, self.delay, self.reserved_4, self.width, self.height,) = _animre_r
                _animre_d = self._debug
                _animre_d['num_chunks'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['delay'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
                _animre_d['reserved_4'] = {'start': _animre_p + 4, 'end': _animre_p + 6}
                _animre_d['width'] = {'start': _animre_p + 6, 'end': _animre_p + 8}
                _animre_d['height'] = {'start': _animre_p + 8, 'end': _animre_p + 10}
            self._debug['chunks']['start'] = self._io.pos()
            self._debug['chunks']['arr'] = []
            self.chunks = []
            i = 0
            while not self._io.is_eof():
                self._debug['chunks']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['chunks']['arr'], self._io)
                _t_chunks = Flc.SubChunk(self._io.pos(), self._io, self, self._root)
                try:
                    _t_chunks._read()
                finally:
                    self.chunks.append(_t_chunks)
                self._debug['chunks']['arr'][len(self.chunks) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['chunks']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.chunks)):
                pass
                self.chunks[i]._fetch_instances()


        @property
        def num_chunks_found(self):
            """Number of sub-chunks actually present in the frame."""
            if hasattr(self, '_m_num_chunks_found'):
                return self._m_num_chunks_found

            self._m_num_chunks_found = len(self.chunks)
            return getattr(self, '_m_num_chunks_found', None)


    class PaletteBody(KaitaiStruct):
        """COLOR_256 (8-bit components) or COLOR_64 (6-bit components) - packets of skip, count, colours."""
        SEQ_FIELDS = ["num_packets", "packets", "padding"]
        def __init__(self, is_sized, _io, _parent=None, _root=None):
            super(Flc.PaletteBody, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_sized = is_sized
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_packets']['start'] = self._io.pos()
            self.num_packets = self._io.read_u2le()
            self._debug['num_packets']['end'] = self._io.pos()
            _ = self.num_packets
            if not _ * 2 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_packets, self._io, u"/types/palette_body/seq/0")
            self._debug['packets']['start'] = self._io.pos()
            self._debug['packets']['arr'] = []
            self.packets = []
            for i in range(self.num_packets):
                self._debug['packets']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['packets']['arr'], self._io)
                _t_packets = Flc.PalettePacket(self._io, self, self._root)
                try:
                    _t_packets._read()
                finally:
                    self.packets.append(_t_packets)
                self._debug['packets']['arr'][i]['end'] = self._io.pos()

            self._debug['packets']['end'] = self._io.pos()
            self._debug['padding']['start'] = self._io.pos()
            self.padding = self._io.read_bytes((self._io.size() - self._io.pos() if self.is_sized else (self._io.size() - self._io.pos() if self._io.size() - self._io.pos() < 6 else 0)))
            self._debug['padding']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.packets)):
                pass
                self.packets[i]._fetch_instances()



    class PalettePacket(KaitaiStruct):
        SEQ_FIELDS = ["num_skip", "num_colors_raw", "colors"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Flc.PalettePacket, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 2, _animre_run_5)
            if _animre_r is None:
                self._debug['num_skip']['start'] = self._io.pos()
                self.num_skip = self._io.read_u1()
                self._debug['num_skip']['end'] = self._io.pos()
                self._debug['num_colors_raw']['start'] = self._io.pos()
                self.num_colors_raw = self._io.read_u1()
                self._debug['num_colors_raw']['end'] = self._io.pos()
            else:
                _animre_p, (self.num_skip, self.num_colors_raw,) = _animre_r
                _animre_d = self._debug
                _animre_d['num_skip'] = {'start': _animre_p + 0, 'end': _animre_p + 1}
                _animre_d['num_colors_raw'] = {'start': _animre_p + 1, 'end': _animre_p + 2}
            self._debug['colors']['start'] = self._io.pos()
            self._debug['colors']['arr'] = []
            self.colors = []
            for i in range(self.num_colors):
                self._debug['colors']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['colors']['arr'], self._io)
                _t_colors = Flc.Rgb(self._io, self, self._root)
                try:
                    _t_colors._read()
                finally:
                    self.colors.append(_t_colors)
                self._debug['colors']['arr'][i]['end'] = self._io.pos()

            self._debug['colors']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.colors)):
                pass
                self.colors[i]._fetch_instances()


        @property
        def num_colors(self):
            """Number of colours in this packet."""
            if hasattr(self, '_m_num_colors'):
                return self._m_num_colors

            self._m_num_colors = (256 if self.num_colors_raw == 0 else self.num_colors_raw)
            return getattr(self, '_m_num_colors', None)


    class PstampBody(KaitaiStruct):
        """PSTAMP (18) postage stamp - a small preview image of the first frame."""
        SEQ_FIELDS = ["height", "width", "color_translation", "data"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Flc.PstampBody, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 6, _animre_run_6)
            if _animre_r is None:
                self._debug['height']['start'] = self._io.pos()
                self.height = self._io.read_u2le()
                self._debug['height']['end'] = self._io.pos()
                self._debug['width']['start'] = self._io.pos()
                self.width = self._io.read_u2le()
                self._debug['width']['end'] = self._io.pos()
                self._debug['color_translation']['start'] = self._io.pos()
                self.color_translation = self._io.read_u2le()
                self._debug['color_translation']['end'] = self._io.pos()
            else:
                _animre_p, (self.height, self.width, self.color_translation,) = _animre_r
                _animre_d = self._debug
                _animre_d['height'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['width'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
                _animre_d['color_translation'] = {'start': _animre_p + 4, 'end': _animre_p + 6}
            self._debug['data']['start'] = self._io.pos()
            self.data = self._io.read_bytes_full()
            self._debug['data']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Rgb(KaitaiStruct):
        SEQ_FIELDS = ["r", "g", "b"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Flc.Rgb, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 3, _animre_run_7)
            if _animre_r is None:
                self._debug['r']['start'] = self._io.pos()
                self.r = self._io.read_u1()
                self._debug['r']['end'] = self._io.pos()
                self._debug['g']['start'] = self._io.pos()
                self.g = self._io.read_u1()
                self._debug['g']['end'] = self._io.pos()
                self._debug['b']['start'] = self._io.pos()
                self.b = self._io.read_u1()
                self._debug['b']['end'] = self._io.pos()
            else:
                _animre_p, (self.r, self.g, self.b,) = _animre_r
                _animre_d = self._debug
                _animre_d['r'] = {'start': _animre_p + 0, 'end': _animre_p + 1}
                _animre_d['g'] = {'start': _animre_p + 1, 'end': _animre_p + 2}
                _animre_d['b'] = {'start': _animre_p + 2, 'end': _animre_p + 3}


        def _fetch_instances(self):
            pass


    class SubChunk(KaitaiStruct):
        """A sub-chunk of a frame - u4 size (including its 6-byte header), u2 type,
        body. The body must fit in the rest of the frame (a larger size fails
        on `body` with the number of bytes requested and available), except for
        palette chunks whose size is impossible (original Civ3 files write
        0xCDCDCDCD there): those are read by their packets instead.
        """
        SEQ_FIELDS = ["len_chunk", "chunk_type", "body", "palette_unsized"]
        def __init__(self, ofs_chunk, _io, _parent=None, _root=None):
            super(Flc.SubChunk, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.ofs_chunk = ofs_chunk
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_chunk']['start'] = self._io.pos()
            self.len_chunk = self._io.read_u4le()
            self._debug['len_chunk']['end'] = self._io.pos()
            self._debug['chunk_type']['start'] = self._io.pos()
            self.chunk_type = KaitaiStream.resolve_enum(Flc.SubChunkType, self._io.read_u2le())
            self._debug['chunk_type']['end'] = self._io.pos()
            if  ((self.has_valid_size) or ((not (self.is_palette)))) :
                pass
                self._debug['body']['start'] = self._io.pos()
                _on = self.chunk_type
                if _on == Flc.SubChunkType.color_256:
                    pass
                    self._raw_body = self._io.read_bytes(self.len_chunk - 6)
                    _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
                    _animre_place(_io__raw_body, self._io, self._debug['body']['start'], None)
                    self.body = Flc.PaletteBody(True, _io__raw_body, self, self._root)
                    self.body._read()
                elif _on == Flc.SubChunkType.color_64:
                    pass
                    self._raw_body = self._io.read_bytes(self.len_chunk - 6)
                    _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
                    _animre_place(_io__raw_body, self._io, self._debug['body']['start'], None)
                    self.body = Flc.PaletteBody(True, _io__raw_body, self, self._root)
                    self.body._read()
                elif _on == Flc.SubChunkType.pstamp:
                    pass
                    self._raw_body = self._io.read_bytes(self.len_chunk - 6)
                    _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
                    _animre_place(_io__raw_body, self._io, self._debug['body']['start'], None)
                    self.body = Flc.PstampBody(_io__raw_body, self, self._root)
                    self.body._read()
                else:
                    pass
                    self.body = self._io.read_bytes(self.len_chunk - 6)
                self._debug['body']['end'] = self._io.pos()

            if  (((not (self.has_valid_size))) and (self.is_palette)) :
                pass
                self._debug['palette_unsized']['start'] = self._io.pos()
                self.palette_unsized = Flc.PaletteBody(False, self._io, self, self._root)
                self.palette_unsized._read()
                self._debug['palette_unsized']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            if  ((self.has_valid_size) or ((not (self.is_palette)))) :
                pass
                _on = self.chunk_type
                if _on == Flc.SubChunkType.color_256:
                    pass
                    self.body._fetch_instances()
                elif _on == Flc.SubChunkType.color_64:
                    pass
                    self.body._fetch_instances()
                elif _on == Flc.SubChunkType.pstamp:
                    pass
                    self.body._fetch_instances()
                else:
                    pass

            if  (((not (self.has_valid_size))) and (self.is_palette)) :
                pass
                self.palette_unsized._fetch_instances()


        @property
        def has_valid_size(self):
            """True when the declared size fits in what is left of the frame."""
            if hasattr(self, '_m_has_valid_size'):
                return self._m_has_valid_size

            self._m_has_valid_size =  ((self.len_chunk >= 6) and (self.len_chunk <= self._io.size() - self.ofs_chunk)) 
            return getattr(self, '_m_has_valid_size', None)

        @property
        def is_palette(self):
            """True for COLOR_256 and COLOR_64 chunks."""
            if hasattr(self, '_m_is_palette'):
                return self._m_is_palette

            self._m_is_palette =  ((self.chunk_type == Flc.SubChunkType.color_256) or (self.chunk_type == Flc.SubChunkType.color_64)) 
            return getattr(self, '_m_is_palette', None)


    @property
    def duration_ms(self):
        """Frame delay in milliseconds (FLI speeds count 1/70 s jiffies, FLC speeds are ms)."""
        if hasattr(self, '_m_duration_ms'):
            return self._m_duration_ms

        self._m_duration_ms = ((self.header.speed * 1000) // 70 if self.header.magic == 44817 else self.header.speed)
        return getattr(self, '_m_duration_ms', None)

    @property
    def has_prefix(self):
        """True when the first chunk is a prefix chunk (0xF100)."""
        if hasattr(self, '_m_has_prefix'):
            return self._m_has_prefix

        self._m_has_prefix =  ((len(self.chunks) > 0) and (self.chunks[0].chunk_type == Flc.ChunkType.prefix)) 
        return getattr(self, '_m_has_prefix', None)

    @property
    def is_fli(self):
        """True for the original FLI format (320 x 200, 6-bit palettes, speed in 1/70 s)."""
        if hasattr(self, '_m_is_fli'):
            return self._m_is_fli

        self._m_is_fli = self.header.magic == 44817
        return getattr(self, '_m_is_fli', None)

    @property
    def is_flicanim(self):
        """True when the reserved area at 0x58 holds a FlicAnimHeader (its size field is 28)."""
        if hasattr(self, '_m_is_flicanim'):
            return self._m_is_flicanim

        self._m_is_flicanim = self.header.flicanim.len_header == 28
        return getattr(self, '_m_is_flicanim', None)

    @property
    def is_truncated(self):
        """True when the last chunk declares more bytes than the file has (by one byte at most)."""
        if hasattr(self, '_m_is_truncated'):
            return self._m_is_truncated

        self._m_is_truncated =  ((len(self.chunks) > 0) and (self.chunks[-1].is_truncated)) 
        return getattr(self, '_m_is_truncated', None)

    @property
    def len_file_matches(self):
        """True when the header's declared file size is the size of the file."""
        if hasattr(self, '_m_len_file_matches'):
            return self._m_len_file_matches

        self._m_len_file_matches = self.header.len_file == self._io.size()
        return getattr(self, '_m_len_file_matches', None)

    @property
    def num_chunks(self):
        """Number of top-level chunks (prefix, frames and any other)."""
        if hasattr(self, '_m_num_chunks'):
            return self._m_num_chunks

        self._m_num_chunks = len(self.chunks)
        return getattr(self, '_m_num_chunks', None)

def _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)
    pass

def _animre_place(sub, io, start, stored):  # animre replaces these (animre/spec/streams.py)
    pass


def _animre_bit_start(io, d):
    return io.pos()


def _animre_bit_end(io, d):
    return io.pos()

def _animre_run(io, n, unpack):  # animre replaces this (animre/spec/streams.py)
    return None


import struct as _animre_struct  # noqa: E402
_animre_run_0 = _animre_struct.Struct('<IH').unpack
_animre_run_1 = _animre_struct.Struct('<HHHHHIHIIIIHH').unpack
_animre_run_2 = _animre_struct.Struct('<II').unpack
_animre_run_3 = _animre_struct.Struct('<IiHHHHHHIi').unpack
_animre_run_4 = _animre_struct.Struct('<HHHHH').unpack
_animre_run_5 = _animre_struct.Struct('<BB').unpack
_animre_run_6 = _animre_struct.Struct('<HHH').unpack
_animre_run_7 = _animre_struct.Struct('<BBB').unpack
