# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import omf_common
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Bk(KaitaiStruct):
    """`*.BK` files hold an arena or menu scene: a 9-byte header, animation
    records (each starting with the absolute offset of the next record)
    until an animation number >= 50 (writers use 51), the width x height
    background bitmap, palettes (256 six-bit RGB colours plus 19 remap tables
    each) and the 30-byte sound table. Animations and sprites are the records
    shared with the fighter files (omf_common).
    
    .. seealso::
       One Must Fall 2097 community format notes, HAR File Format (.AF) (Animation, Sprites, sound table "0 in all known AF/BK files")
    
    
    .. seealso::
       openomf engine source (BK file reader, sd_bk_anim_load)
    """
    SEQ_FIELDS = ["file_id", "unknown_4", "width", "height", "animations", "background", "num_palettes", "palettes", "sound_table", "trailing"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Bk, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        _animre_r = _animre_run(self._io, 7, _animre_run_0)
        if _animre_r is None:
            self._debug['file_id']['start'] = self._io.pos()
            self.file_id = self._io.read_u4le()
            self._debug['file_id']['end'] = self._io.pos()
            self._debug['unknown_4']['start'] = self._io.pos()
            self.unknown_4 = self._io.read_u1()
            self._debug['unknown_4']['end'] = self._io.pos()
            self._debug['width']['start'] = self._io.pos()
            self.width = self._io.read_u2le()
            self._debug['width']['end'] = self._io.pos()
        else:
            _animre_p, (self.file_id, self.unknown_4, self.width,) = _animre_r
            _animre_d = self._debug
            _animre_d['file_id'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
            _animre_d['unknown_4'] = {'start': _animre_p + 4, 'end': _animre_p + 5}
            _animre_d['width'] = {'start': _animre_p + 5, 'end': _animre_p + 7}
        if not self.width >= 1:
            raise kaitaistruct.ValidationLessThanError(1, self.width, self._io, u"/seq/2")
        self._debug['height']['start'] = self._io.pos()
        self.height = self._io.read_u2le()
        self._debug['height']['end'] = self._io.pos()
        _ = self.height
        if not  ((_ >= 1) and (self.width * _ <= self._io.size() - self._io.pos())) :
            raise kaitaistruct.ValidationExprError(self.height, self._io, u"/seq/3")
        self._debug['animations']['start'] = self._io.pos()
        self._debug['animations']['arr'] = []
        self.animations = []
        i = 0
        while True:
            self._debug['animations']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['animations']['arr'], self._io)
            _t_animations = Bk.AnimRecord(self._io, self, self._root)
            try:
                _t_animations._read()
            finally:
                _ = _t_animations
                self.animations.append(_)
            self._debug['animations']['arr'][len(self.animations) - 1]['end'] = self._io.pos()
            if _.anim_number >= 50:
                break
            i += 1
        self._debug['animations']['end'] = self._io.pos()
        self._debug['background']['start'] = self._io.pos()
        self.background = self._io.read_bytes(self.width * self.height)
        self._debug['background']['end'] = self._io.pos()
        self._debug['num_palettes']['start'] = self._io.pos()
        self.num_palettes = self._io.read_u1()
        self._debug['num_palettes']['end'] = self._io.pos()
        _ = self.num_palettes
        if not _ * 5632 <= self._io.size() - self._io.pos():
            raise kaitaistruct.ValidationExprError(self.num_palettes, self._io, u"/seq/6")
        self._debug['palettes']['start'] = self._io.pos()
        self._debug['palettes']['arr'] = []
        self.palettes = []
        for i in range(self.num_palettes):
            self._debug['palettes']['arr'].append({'start': self._io.pos()})
            if i & 4095 == 4095:
                _animre_check(self._debug['palettes']['arr'], self._io)
            _t_palettes = Bk.Palette(self._io, self, self._root)
            try:
                _t_palettes._read()
            finally:
                self.palettes.append(_t_palettes)
            self._debug['palettes']['arr'][i]['end'] = self._io.pos()

        self._debug['palettes']['end'] = self._io.pos()
        self._debug['sound_table']['start'] = self._io.pos()
        self.sound_table = omf_common.OmfCommon.SoundTable(self._io)
        self.sound_table._read()
        self._debug['sound_table']['end'] = self._io.pos()
        self._debug['trailing']['start'] = self._io.pos()
        self.trailing = self._io.read_bytes_full()
        self._debug['trailing']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.animations)):
            pass
            self.animations[i]._fetch_instances()

        for i in range(len(self.palettes)):
            pass
            self.palettes[i]._fetch_instances()

        self.sound_table._fetch_instances()

    class AnimRecord(KaitaiStruct):
        """One animation record or the terminator."""
        SEQ_FIELDS = ["ofs_next", "anim_number", "header", "animation"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Bk.AnimRecord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['ofs_next']['start'] = self._io.pos()
            self.ofs_next = self._io.read_u4le()
            self._debug['ofs_next']['end'] = self._io.pos()
            _ = self.ofs_next
            if not _ <= self._io.size():
                raise kaitaistruct.ValidationExprError(self.ofs_next, self._io, u"/types/anim_record/seq/0")
            self._debug['anim_number']['start'] = self._io.pos()
            self.anim_number = self._io.read_u1()
            self._debug['anim_number']['end'] = self._io.pos()
            if self.anim_number < 50:
                pass
                self._debug['header']['start'] = self._io.pos()
                self.header = Bk.BkAnimHeader(self._io, self, self._root)
                self.header._read()
                self._debug['header']['end'] = self._io.pos()

            if self.anim_number < 50:
                pass
                self._debug['animation']['start'] = self._io.pos()
                self.animation = omf_common.OmfCommon.Animation(self._io)
                self.animation._read()
                self._debug['animation']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            if self.anim_number < 50:
                pass
                self.header._fetch_instances()

            if self.anim_number < 50:
                pass
                self.animation._fetch_instances()



    class BkAnimHeader(KaitaiStruct):
        """Arena-specific header of an animation record (openomf sd_bk_anim_load)."""
        SEQ_FIELDS = ["unknown_0", "chain_if_hit", "chain_if_no_hit", "repeat", "probability", "hazard_damage", "footer_string"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Bk.BkAnimHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 7, _animre_run_1)
            if _animre_r is None:
                self._debug['unknown_0']['start'] = self._io.pos()
                self.unknown_0 = self._io.read_u1()
                self._debug['unknown_0']['end'] = self._io.pos()
                self._debug['chain_if_hit']['start'] = self._io.pos()
                self.chain_if_hit = self._io.read_u1()
                self._debug['chain_if_hit']['end'] = self._io.pos()
                self._debug['chain_if_no_hit']['start'] = self._io.pos()
                self.chain_if_no_hit = self._io.read_u1()
                self._debug['chain_if_no_hit']['end'] = self._io.pos()
                self._debug['repeat']['start'] = self._io.pos()
                self.repeat = self._io.read_u1()
                self._debug['repeat']['end'] = self._io.pos()
                self._debug['probability']['start'] = self._io.pos()
                self.probability = self._io.read_u2le()
                self._debug['probability']['end'] = self._io.pos()
                self._debug['hazard_damage']['start'] = self._io.pos()
                self.hazard_damage = self._io.read_u1()
                self._debug['hazard_damage']['end'] = self._io.pos()
            else:
                _animre_p, (self.unknown_0, self.chain_if_hit, self.chain_if_no_hit, self.repeat, self.probability, self.hazard_damage,) = _animre_r
                _animre_d = self._debug
                _animre_d['unknown_0'] = {'start': _animre_p + 0, 'end': _animre_p + 1}
                _animre_d['chain_if_hit'] = {'start': _animre_p + 1, 'end': _animre_p + 2}
                _animre_d['chain_if_no_hit'] = {'start': _animre_p + 2, 'end': _animre_p + 3}
                _animre_d['repeat'] = {'start': _animre_p + 3, 'end': _animre_p + 4}
                _animre_d['probability'] = {'start': _animre_p + 4, 'end': _animre_p + 6}
                _animre_d['hazard_damage'] = {'start': _animre_p + 6, 'end': _animre_p + 7}
            self._debug['footer_string']['start'] = self._io.pos()
            self.footer_string = omf_common.OmfCommon.FooterString(self._io)
            self.footer_string._read()
            self._debug['footer_string']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.footer_string._fetch_instances()


    class Palette(KaitaiStruct):
        """One palette (256 colours, 6 bits per channel) and its 19 remap tables."""
        SEQ_FIELDS = ["colors", "remaps"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Bk.Palette, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['colors']['start'] = self._io.pos()
            self.colors = self._io.read_bytes(768)
            self._debug['colors']['end'] = self._io.pos()
            self._debug['remaps']['start'] = self._io.pos()
            self._debug['remaps']['arr'] = []
            self.remaps = []
            for i in range(19):
                self._debug['remaps']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['remaps']['arr'], self._io)
                self.remaps.append(self._io.read_bytes(256))
                self._debug['remaps']['arr'][i]['end'] = self._io.pos()

            self._debug['remaps']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.remaps)):
                pass



    @property
    def num_animations(self):
        """Number of animations (without the terminator record)."""
        if hasattr(self, '_m_num_animations'):
            return self._m_num_animations

        self._m_num_animations = len(self.animations) - 1
        return getattr(self, '_m_num_animations', None)

    @property
    def terminator(self):
        """Animation number of the terminator record (>= 50; 51 when written by openomf)."""
        if hasattr(self, '_m_terminator'):
            return self._m_terminator

        self._m_terminator = self.animations[-1].anim_number
        return getattr(self, '_m_terminator', None)

    @property
    def terminator_ofs_next(self):
        """The terminator record's next-record offset (0 when written by openomf)."""
        if hasattr(self, '_m_terminator_ofs_next'):
            return self._m_terminator_ofs_next

        self._m_terminator_ofs_next = self.animations[-1].ofs_next
        return getattr(self, '_m_terminator_ofs_next', None)

def _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)
    pass

def _animre_run(io, n, unpack):  # animre replaces this (animre/spec/streams.py)
    return None


import struct as _animre_struct  # noqa: E402
_animre_run_0 = _animre_struct.Struct('<IBH').unpack
_animre_run_1 = _animre_struct.Struct('<BBBBHB').unpack
