# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Icn(KaitaiStruct):
    """A set of run-length encoded 8-bit sprites stored in HEROES2.AGG (monster
    battle animations, interface pieces, cursors). No magic: a u2 sprite count,
    a u4 size of everything after these 6 bytes (the file size minus 6), then
    13 bytes per sprite: s2 x offset, s2 y offset, u2 width, u2 height, a type
    byte and a u4 data offset counted from byte 6. A sprite's data runs to the
    next sprite's data offset; the last one runs to the end of the block.
    The pixel data is kept as raw bytes; animre.decode.icn decodes it (the
    run-length commands, transparency, shadow levels and monochrome sprites).
    A monster's *FRM.BIN frame ids are indices into the sprites of its ICN.
    
    Tables (animre.flatten): `icn` (one row per file) and `icn_sprites` (one
    row per sprite, key `sprite`).
    
    .. seealso::
       fheroes2 engine source, the ICN header reader, the ICN loader (data ranges) and the ICN sprite decoder
    """
    SEQ_FIELDS = ["num_sprites", "len_block", "sprites"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Icn, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['num_sprites']['start'] = self._io.pos()
        self.num_sprites = self._io.read_u2le()
        self._debug['num_sprites']['end'] = self._io.pos()
        _ = self.num_sprites
        if not _ * 13 <= self._io.size() - 6:
            raise kaitaistruct.ValidationExprError(self.num_sprites, self._io, u"/seq/0")
        self._debug['len_block']['start'] = self._io.pos()
        self.len_block = self._io.read_u4le()
        self._debug['len_block']['end'] = self._io.pos()
        _ = self.len_block
        if not _ <= self._io.size() - self._io.pos():
            raise kaitaistruct.ValidationExprError(self.len_block, self._io, u"/seq/1")
        self._debug['sprites']['start'] = self._io.pos()
        self._debug['sprites']['arr'] = []
        self.sprites = []
        for i in range(self.num_sprites):
            self._debug['sprites']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['sprites']['arr'], self._io)
            _t_sprites = Icn.SpriteHeader(i, self._io, self, self._root)
            try:
                _t_sprites._read()
            finally:
                self.sprites.append(_t_sprites)
            self._debug['sprites']['arr'][i]['end'] = self._io.pos()

        self._debug['sprites']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.sprites)):
            pass
            self.sprites[i]._fetch_instances()


    class SpriteHeader(KaitaiStruct):
        SEQ_FIELDS = ["offset_x", "offset_y", "width", "height", "type_byte", "ofs_data"]
        def __init__(self, index, _io, _parent=None, _root=None):
            super(Icn.SpriteHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.index = index
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 13, _animre_run_0)
            if _animre_r is None:
                self._debug['offset_x']['start'] = self._io.pos()
                self.offset_x = self._io.read_s2le()
                self._debug['offset_x']['end'] = self._io.pos()
                self._debug['offset_y']['start'] = self._io.pos()
                self.offset_y = self._io.read_s2le()
                self._debug['offset_y']['end'] = self._io.pos()
                self._debug['width']['start'] = self._io.pos()
                self.width = self._io.read_u2le()
                self._debug['width']['end'] = self._io.pos()
                self._debug['height']['start'] = self._io.pos()
                self.height = self._io.read_u2le()
                self._debug['height']['end'] = self._io.pos()
                self._debug['type_byte']['start'] = self._io.pos()
                self.type_byte = self._io.read_u1()
                self._debug['type_byte']['end'] = self._io.pos()
                self._debug['ofs_data']['start'] = self._io.pos()
                self.ofs_data = self._io.read_u4le()
                self._debug['ofs_data']['end'] = self._io.pos()
            else:
                _animre_p, (self.offset_x, self.offset_y, self.width, self.height, self.type_byte, self.ofs_data,) = _animre_r
                _animre_d = self._debug
                _animre_d['offset_x'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['offset_y'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
                _animre_d['width'] = {'start': _animre_p + 4, 'end': _animre_p + 6}
                _animre_d['height'] = {'start': _animre_p + 6, 'end': _animre_p + 8}
                _animre_d['type_byte'] = {'start': _animre_p + 8, 'end': _animre_p + 9}
                _animre_d['ofs_data'] = {'start': _animre_p + 9, 'end': _animre_p + 13}


        def _fetch_instances(self):
            pass
            _ = self.data
            if hasattr(self, '_m_data'):
                pass


        @property
        def data(self):
            """The sprite's run-length encoded pixel commands (decoded by animre.decode.icn)."""
            if hasattr(self, '_m_data'):
                return self._m_data

            _pos = self._io.pos()
            self._io.seek(6 + self.ofs_data)
            self._debug['_m_data']['start'] = self._io.pos()
            self._m_data = self._io.read_bytes(self.len_data)
            self._debug['_m_data']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_data', None)

        @property
        def is_monochrome(self):
            """Bit 0x20 of type_byte; the engine decodes the sprite with the monochrome commands."""
            if hasattr(self, '_m_is_monochrome'):
                return self._m_is_monochrome

            self._m_is_monochrome = self.type_byte & 32 != 0
            return getattr(self, '_m_is_monochrome', None)

        @property
        def len_data(self):
            """Size of the sprite's pixel commands (negative when offsets are out of order)."""
            if hasattr(self, '_m_len_data'):
                return self._m_len_data

            self._m_len_data = self.ofs_data_end - self.ofs_data
            return getattr(self, '_m_len_data', None)

        @property
        def ofs_data_end(self):
            """Where the sprite's data ends (next sprite's data offset; the block size for the last sprite)."""
            if hasattr(self, '_m_ofs_data_end'):
                return self._m_ofs_data_end

            self._m_ofs_data_end = (self._parent.sprites[self.index + 1].ofs_data if self.index + 1 < self._parent.num_sprites else self._parent.len_block)
            return getattr(self, '_m_ofs_data_end', None)


    @property
    def len_trailing(self):
        """Bytes after the block (0 in known files; the engine ignores them)."""
        if hasattr(self, '_m_len_trailing'):
            return self._m_len_trailing

        self._m_len_trailing = (self._io.size() - 6) - self.len_block
        return getattr(self, '_m_len_trailing', None)

def _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)
    pass

def _animre_run(io, n, unpack):  # animre replaces this (animre/spec/streams.py)
    return None


import struct as _animre_struct  # noqa: E402
_animre_run_0 = _animre_struct.Struct('<hhHHBI').unpack
