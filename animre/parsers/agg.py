# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Agg(KaitaiStruct):
    """The archive holding every resource of the game (monster animation
    FRM.BIN files, ICN sprite sheets, KB.PAL, ...): a u2 entry count, one
    12-byte record per entry (name hash, offset, size) right after it, the
    members' bytes, and, at the very end of the file, one 15-byte name per
    entry (an 8.3 name of up to 13 characters, NUL-terminated and padded).
    The engine refuses an archive whose records and names (27 bytes per
    entry) do not fit in the file, and one with a repeated name; it skips the
    hash. The game looks a name up by its hash: the name read from its last
    character to its first, letters upper-cased, h = rotl(h, 5) + sum + c with
    sum the running total of the characters (32-bit wrap-around).
    
    .. seealso::
       fheroes2 engine source, the AGG archive reader (layout, 15-byte names at the end, checks on open)
    
    
    .. seealso::
       Heroes of Might and Magic II reverse-engineered game source, the resource id hash of a file name
    """
    SEQ_FIELDS = ["num_entries", "entries"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Agg, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['num_entries']['start'] = self._io.pos()
        self.num_entries = self._io.read_u2le()
        self._debug['num_entries']['end'] = self._io.pos()
        self._debug['entries']['start'] = self._io.pos()
        self._debug['entries']['arr'] = []
        self.entries = []
        for i in range(self.num_entries):
            self._debug['entries']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['entries']['arr'], self._io)
            _t_entries = Agg.Entry(i, self._io, self, self._root)
            try:
                _t_entries._read()
            finally:
                self.entries.append(_t_entries)
            self._debug['entries']['arr'][i]['end'] = self._io.pos()

        self._debug['entries']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.entries)):
            pass
            self.entries[i]._fetch_instances()


    class Entry(KaitaiStruct):
        SEQ_FIELDS = ["name_hash", "ofs_data", "len_data"]
        def __init__(self, i, _io, _parent=None, _root=None):
            super(Agg.Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.i = i
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 12, _animre_run_0)
            if _animre_r is None:
                self._debug['name_hash']['start'] = self._io.pos()
                self.name_hash = self._io.read_u4le()
                self._debug['name_hash']['end'] = self._io.pos()
                self._debug['ofs_data']['start'] = self._io.pos()
                self.ofs_data = self._io.read_u4le()
                self._debug['ofs_data']['end'] = self._io.pos()
                self._debug['len_data']['start'] = self._io.pos()
                self.len_data = self._io.read_u4le()
                self._debug['len_data']['end'] = self._io.pos()
            else:
                _animre_p, (self.name_hash, self.ofs_data, self.len_data,) = _animre_r
                _animre_d = self._debug
                _animre_d['name_hash'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['ofs_data'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
                _animre_d['len_data'] = {'start': _animre_p + 8, 'end': _animre_p + 12}


        def _fetch_instances(self):
            pass
            _ = self.name
            if hasattr(self, '_m_name'):
                pass


        @property
        def name(self):
            """The member's name (up to 13 characters, NUL-terminated; the bytes after the NUL are padding)."""
            if hasattr(self, '_m_name'):
                return self._m_name

            io = self._root._io
            _pos = io.pos()
            io.seek(self._root.ofs_names + self.i * 15)
            self._debug['_m_name']['start'] = io.pos()
            self._debug['_m_name']['io'] = io
            self._m_name = (KaitaiStream.bytes_terminate(io.read_bytes(15), 0, False)).decode(u"ASCII")
            self._debug['_m_name']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_name', None)


    @property
    def ofs_names(self):
        """Where the name table starts (the last 15 x num_entries bytes of the file)."""
        if hasattr(self, '_m_ofs_names'):
            return self._m_ofs_names

        self._m_ofs_names = self._io.size() - self.num_entries * 15
        return getattr(self, '_m_ofs_names', None)

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
_animre_run_0 = _animre_struct.Struct('<III').unpack
