# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class OmfCommon(KaitaiStruct):
    """Records shared by the fighter (`FIGHTR*.AF`) and arena (`*.BK`) files of
    One Must Fall 2097: the animation (start position, collision coordinates,
    animation strings, sprites), the sprite record with its pixel stream, the
    two string encodings and the 30-byte sound table. This spec reads nothing
    by itself; `af` and `bk` import its types.
    
    The types avoid `_root` and `_parent` so that they read the same wherever
    they are used. Counts are checked against the bytes left in the stream
    before anything is looped over.
    
    .. seealso::
       One Must Fall 2097 community format notes, HAR File Format (.AF) (Animation, Collision coordinate table, Animation String Header, Sprites)
    
    
    .. seealso::
       openomf engine source (AF and BK file readers)
    """
    SEQ_FIELDS = []
    def __init__(self, _io, _parent=None, _root=None):
        super(OmfCommon, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        pass


    def _fetch_instances(self):
        pass

    class AnimString(KaitaiStruct):
        """Animation or extra string: u2 length that EXCLUDES the terminating
        NUL; the NUL byte is always present, also for length 0.
        """
        SEQ_FIELDS = ["len_str", "text", "terminator"]
        def __init__(self, _io, _parent=None, _root=None):
            super(OmfCommon.AnimString, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_str']['start'] = self._io.pos()
            self.len_str = self._io.read_u2le()
            self._debug['len_str']['end'] = self._io.pos()
            self._debug['text']['start'] = self._io.pos()
            self.text = (self._io.read_bytes(self.len_str)).decode(u"ISO-8859-1")
            self._debug['text']['end'] = self._io.pos()
            self._debug['terminator']['start'] = self._io.pos()
            self.terminator = self._io.read_u1()
            self._debug['terminator']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Animation(KaitaiStruct):
        """One animation: header, collision coordinates, animation string, extra
        strings and `num_sprites` sprite records.
        """
        SEQ_FIELDS = ["start_x", "start_y", "unknown_4", "num_coords", "num_sprites", "coords", "anim_string", "num_extra_strings", "extra_strings", "sprites"]
        def __init__(self, _io, _parent=None, _root=None):
            super(OmfCommon.Animation, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 10, _animre_run_0)
            if _animre_r is None:
                self._debug['start_x']['start'] = self._io.pos()
                self.start_x = self._io.read_s2le()
                self._debug['start_x']['end'] = self._io.pos()
                self._debug['start_y']['start'] = self._io.pos()
                self.start_y = self._io.read_s2le()
                self._debug['start_y']['end'] = self._io.pos()
                self._debug['unknown_4']['start'] = self._io.pos()
                self.unknown_4 = self._io.read_u4le()
                self._debug['unknown_4']['end'] = self._io.pos()
                self._debug['num_coords']['start'] = self._io.pos()
                self.num_coords = self._io.read_u2le()
                self._debug['num_coords']['end'] = self._io.pos()
            else:
                _animre_p, (self.start_x, self.start_y, self.unknown_4, self.num_coords,) = _animre_r
                _animre_d = self._debug
                _animre_d['start_x'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['start_y'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
                _animre_d['unknown_4'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
                _animre_d['num_coords'] = {'start': _animre_p + 8, 'end': _animre_p + 10}
            _ = self.num_coords
            if not _ * 4 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_coords, self._io, u"/types/animation/seq/3")
            self._debug['num_sprites']['start'] = self._io.pos()
            self.num_sprites = self._io.read_u1()
            self._debug['num_sprites']['end'] = self._io.pos()
            _ = self.num_sprites
            if not _ * 12 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_sprites, self._io, u"/types/animation/seq/4")
            self._debug['coords']['start'] = self._io.pos()
            self._debug['coords']['arr'] = []
            self._raw_coords = []
            self.coords = []
            for i in range(self.num_coords):
                self._debug['coords']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['coords']['arr'], self._io)
                self._raw_coords.append(self._io.read_bytes(4))
                _io__raw_coords = KaitaiStream(BytesIO(self._raw_coords[i]))
                _animre_place(_io__raw_coords, self._io, self._debug['coords']['arr'][i]['start'], None)
                _t_coords = OmfCommon.CollisionCoord(_io__raw_coords, self, self._root)
                try:
                    _t_coords._read()
                finally:
                    self.coords.append(_t_coords)
                self._debug['coords']['arr'][i]['end'] = self._io.pos()

            self._debug['coords']['end'] = self._io.pos()
            self._debug['anim_string']['start'] = self._io.pos()
            self.anim_string = OmfCommon.AnimString(self._io, self, self._root)
            self.anim_string._read()
            self._debug['anim_string']['end'] = self._io.pos()
            self._debug['num_extra_strings']['start'] = self._io.pos()
            self.num_extra_strings = self._io.read_u1()
            self._debug['num_extra_strings']['end'] = self._io.pos()
            _ = self.num_extra_strings
            if not _ * 3 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_extra_strings, self._io, u"/types/animation/seq/7")
            self._debug['extra_strings']['start'] = self._io.pos()
            self._debug['extra_strings']['arr'] = []
            self.extra_strings = []
            for i in range(self.num_extra_strings):
                self._debug['extra_strings']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['extra_strings']['arr'], self._io)
                _t_extra_strings = OmfCommon.AnimString(self._io, self, self._root)
                try:
                    _t_extra_strings._read()
                finally:
                    self.extra_strings.append(_t_extra_strings)
                self._debug['extra_strings']['arr'][i]['end'] = self._io.pos()

            self._debug['extra_strings']['end'] = self._io.pos()
            self._debug['sprites']['start'] = self._io.pos()
            self._debug['sprites']['arr'] = []
            self.sprites = []
            for i in range(self.num_sprites):
                self._debug['sprites']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['sprites']['arr'], self._io)
                _t_sprites = OmfCommon.Sprite(self._io, self, self._root)
                try:
                    _t_sprites._read()
                finally:
                    self.sprites.append(_t_sprites)
                self._debug['sprites']['arr'][i]['end'] = self._io.pos()

            self._debug['sprites']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.coords)):
                pass
                self.coords[i]._fetch_instances()

            self.anim_string._fetch_instances()
            for i in range(len(self.extra_strings)):
                pass
                self.extra_strings[i]._fetch_instances()

            for i in range(len(self.sprites)):
                pass
                self.sprites[i]._fetch_instances()



    class CollisionCoord(KaitaiStruct):
        """One collision point packed in a little-endian u4: bits 0-9 x, bits
        10-15 unused, bits 16-25 y, bits 26-31 frame index. x and y are read
        as 10-bit two's complement (-512..511), which the note does not say;
        the raw word is kept so other readings can be tested.
        """
        SEQ_FIELDS = ["raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(OmfCommon.CollisionCoord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['raw']['start'] = self._io.pos()
            self.raw = self._io.read_u4le()
            self._debug['raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass

        @property
        def frame(self):
            """Bits 26-31, the frame (sprite) index this point belongs to, 0-based."""
            if hasattr(self, '_m_frame'):
                return self._m_frame

            self._m_frame = self.raw >> 26 & 63
            return getattr(self, '_m_frame', None)

        @property
        def unknown_bits_10_15(self):
            """Bits 10-15; the note says "NULL, always 0 ?"."""
            if hasattr(self, '_m_unknown_bits_10_15'):
                return self._m_unknown_bits_10_15

            self._m_unknown_bits_10_15 = self.raw >> 10 & 63
            return getattr(self, '_m_unknown_bits_10_15', None)

        @property
        def x(self):
            """X coordinate read as 10-bit two's complement."""
            if hasattr(self, '_m_x'):
                return self._m_x

            self._m_x = (self.x_raw - 1024 if self.x_raw >= 512 else self.x_raw)
            return getattr(self, '_m_x', None)

        @property
        def x_raw(self):
            """Bits 0-9, the X coordinate as an unsigned 10-bit value."""
            if hasattr(self, '_m_x_raw'):
                return self._m_x_raw

            self._m_x_raw = self.raw & 1023
            return getattr(self, '_m_x_raw', None)

        @property
        def y(self):
            """Y coordinate read as 10-bit two's complement."""
            if hasattr(self, '_m_y'):
                return self._m_y

            self._m_y = (self.y_raw - 1024 if self.y_raw >= 512 else self.y_raw)
            return getattr(self, '_m_y', None)

        @property
        def y_raw(self):
            """Bits 16-25, the Y coordinate as an unsigned 10-bit value."""
            if hasattr(self, '_m_y_raw'):
                return self._m_y_raw

            self._m_y_raw = self.raw >> 16 & 1023
            return getattr(self, '_m_y_raw', None)


    class FooterString(KaitaiStruct):
        """Move/animation footer string: u2 length that INCLUDES the terminating
        NUL; a length of 0 means no bytes at all.
        """
        SEQ_FIELDS = ["len_str", "text", "terminator"]
        def __init__(self, _io, _parent=None, _root=None):
            super(OmfCommon.FooterString, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_str']['start'] = self._io.pos()
            self.len_str = self._io.read_u2le()
            self._debug['len_str']['end'] = self._io.pos()
            self._debug['text']['start'] = self._io.pos()
            self.text = (self._io.read_bytes((self.len_str - 1 if self.len_str > 0 else 0))).decode(u"ISO-8859-1")
            self._debug['text']['end'] = self._io.pos()
            if self.len_str > 0:
                pass
                self._debug['terminator']['start'] = self._io.pos()
                self.terminator = self._io.read_u1()
                self._debug['terminator']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            if self.len_str > 0:
                pass



    class SoundTable(KaitaiStruct):
        """The 30-byte sound table at the end of AF and BK files: entry n is the
        SOUNDS.DAT sample (1-based) played by an `s<n>` tag. Entry 0 is unused
        (0 in all known files); in AF files the last five entries spell FGHED.
        """
        SEQ_FIELDS = ["sound_ids"]
        def __init__(self, _io, _parent=None, _root=None):
            super(OmfCommon.SoundTable, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['sound_ids']['start'] = self._io.pos()
            self._debug['sound_ids']['arr'] = []
            self.sound_ids = []
            for i in range(30):
                self._debug['sound_ids']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['sound_ids']['arr'], self._io)
                self.sound_ids.append(self._io.read_u1())
                self._debug['sound_ids']['arr'][i]['end'] = self._io.pos()

            self._debug['sound_ids']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.sound_ids)):
                pass



    class Sprite(KaitaiStruct):
        """Sprite record: 12-byte header, then `len_data` bytes of pixel stream
        only when `missing == 0`. A missing sprite reuses the pixels of an
        earlier sprite with the same index (resolved over all moves in file
        order; see animre.decode.omf_sprites).
        """
        SEQ_FIELDS = ["len_data", "x", "y", "width", "height", "index", "missing", "pixels"]
        def __init__(self, _io, _parent=None, _root=None):
            super(OmfCommon.Sprite, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 12, _animre_run_1)
            if _animre_r is None:
                self._debug['len_data']['start'] = self._io.pos()
                self.len_data = self._io.read_u2le()
                self._debug['len_data']['end'] = self._io.pos()
                self._debug['x']['start'] = self._io.pos()
                self.x = self._io.read_s2le()
                self._debug['x']['end'] = self._io.pos()
                self._debug['y']['start'] = self._io.pos()
                self.y = self._io.read_s2le()
                self._debug['y']['end'] = self._io.pos()
                self._debug['width']['start'] = self._io.pos()
                self.width = self._io.read_u2le()
                self._debug['width']['end'] = self._io.pos()
                self._debug['height']['start'] = self._io.pos()
                self.height = self._io.read_u2le()
                self._debug['height']['end'] = self._io.pos()
                self._debug['index']['start'] = self._io.pos()
                self.index = self._io.read_u1()
                self._debug['index']['end'] = self._io.pos()
                self._debug['missing']['start'] = self._io.pos()
                self.missing = self._io.read_u1()
                self._debug['missing']['end'] = self._io.pos()
            else:
                _animre_p, (self.len_data, self.x, self.y, self.width, self.height, self.index, self.missing,) = _animre_r
                _animre_d = self._debug
                _animre_d['len_data'] = {'start': _animre_p + 0, 'end': _animre_p + 2}
                _animre_d['x'] = {'start': _animre_p + 2, 'end': _animre_p + 4}
                _animre_d['y'] = {'start': _animre_p + 4, 'end': _animre_p + 6}
                _animre_d['width'] = {'start': _animre_p + 6, 'end': _animre_p + 8}
                _animre_d['height'] = {'start': _animre_p + 8, 'end': _animre_p + 10}
                _animre_d['index'] = {'start': _animre_p + 10, 'end': _animre_p + 11}
                _animre_d['missing'] = {'start': _animre_p + 11, 'end': _animre_p + 12}
            self._debug['pixels']['start'] = self._io.pos()
            self.pixels = self._io.read_bytes((self.len_data if self.missing == 0 else 0))
            self._debug['pixels']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass

        @property
        def has_pixels(self):
            """True when pixel data is stored in this record."""
            if hasattr(self, '_m_has_pixels'):
                return self._m_has_pixels

            self._m_has_pixels =  ((self.missing == 0) and (self.len_data > 0)) 
            return getattr(self, '_m_has_pixels', None)

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
_animre_run_0 = _animre_struct.Struct('<hhIH').unpack
_animre_run_1 = _animre_struct.Struct('<HhhHHBB').unpack
