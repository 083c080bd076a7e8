# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Pal(KaitaiStruct):
    """The game palette stored in HEROES2.AGG as KB.PAL: 256 colours of three
    6-bit VGA components (0-63) each, 768 bytes. The engine scales a component
    to 8 bits by shifting it left by 2 (63 -> 252). ICN sprites index it.
    
    Tables (animre.flatten): `pal` (one row per file) and `pal_colors` (one row
    per colour, key `color`).
    
    .. seealso::
       fheroes2 engine source, the game palette loader (KB.PAL, 6-bit components shifted left by 2)
    """
    SEQ_FIELDS = ["colors", "trailing"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Pal, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['colors']['start'] = self._io.pos()
        self._debug['colors']['arr'] = []
        self.colors = []
        for i in range(256):
            self._debug['colors']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['colors']['arr'], self._io)
            _t_colors = Pal.Rgb6(self._io, self, self._root)
            try:
                _t_colors._read()
            finally:
                self.colors.append(_t_colors)
            self._debug['colors']['arr'][i]['end'] = self._io.pos()

        self._debug['colors']['end'] = self._io.pos()
        self._debug['trailing']['start'] = self._io.pos()
        self.trailing = self._io.read_bytes_full()
        self._debug['trailing']['end'] = self._io.pos()
        _ = self.trailing
        if not len(_) == 0:
            raise kaitaistruct.ValidationExprError(self.trailing, self._io, u"/seq/1")


    def _fetch_instances(self):
        pass
        for i in range(len(self.colors)):
            pass
            self.colors[i]._fetch_instances()


    class Rgb6(KaitaiStruct):
        SEQ_FIELDS = ["r", "g", "b"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Pal.Rgb6, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 3, _animre_run_0)
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

def _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)
    pass

def _animre_run(io, n, unpack):  # animre replaces this (animre/spec/streams.py)
    return None


import struct as _animre_struct  # noqa: E402
_animre_run_0 = _animre_struct.Struct('<BBB').unpack
