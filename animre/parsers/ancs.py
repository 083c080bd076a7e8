# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
import pas4
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Ancs(KaitaiStruct):
    """An ANCS file holds a character set (one character info per character: its
    name, model ids, animation names, its PAS4 database, particles, effects,
    overlays ...) and then an animation set. animre reads it to find where
    each character's PAS4 database (`ksy/pas4.ksy`) starts and ends; the
    animation set after the characters is not read. The file is the type
    `ancs_file`: the spec has no top-level fields, so it is not a format of its
    own (the `pas4` format reads ANCS files through it).
    
    The character info layout changes with its version (1 to 10): Prime 1
    writes a second string per animation name (version < 10), Prime 2
    (version 10) reads one word instead of a third particle list, adds spawn
    particles, a second unknown word, bone ids instead of bone names in effect
    components, spatial primitives and indexed bounding boxes. A field with
    `if:` is read only in the versions that have it.
    
    Every count is checked against the bytes left before looping, with the
    smallest size of one element (an animation name 6 bytes, 5 in version 10;
    a bounding box 25; an effect 5; a component 21; an indexed box 28; a
    character 51), so a hostile count fails at once with its field path.
    
    .. seealso::
       metaforce engine source (CCharacterSet, CCharacterInfo, CAnimationSet readers)
    
    
    .. seealso::
       retro-data-structures ANCS description (character info versions 1-10)
    """
    SEQ_FIELDS = []
    def __init__(self, _io, _parent=None, _root=None):
        super(Ancs, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        pass


    def _fetch_instances(self):
        pass

    class AncsFile(KaitaiStruct):
        SEQ_FIELDS = ["version", "character_set"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Ancs.AncsFile, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_u2be()
            self._debug['version']['end'] = self._io.pos()
            if not self.version == 1:
                raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/types/ancs_file/seq/0")
            self._debug['character_set']['start'] = self._io.pos()
            self.character_set = Ancs.CharacterSet(self._io, self, self._root)
            self.character_set._read()
            self._debug['character_set']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.character_set._fetch_instances()


    class AnimationAabb(KaitaiStruct):
        SEQ_FIELDS = ["name", "box"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Ancs.AnimationAabb, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name']['start'] = self._io.pos()
            self.name = (self._io.read_bytes_term(0, False, True, True)).decode(u"ASCII")
            self._debug['name']['end'] = self._io.pos()
            self._debug['box']['start'] = self._io.pos()
            self._debug['box']['arr'] = []
            self.box = []
            for i in range(6):
                self._debug['box']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['box']['arr'], self._io)
                self.box.append(self._io.read_f4be())
                self._debug['box']['arr'][i]['end'] = self._io.pos()

            self._debug['box']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.box)):
                pass



    class AnimationName(KaitaiStruct):
        SEQ_FIELDS = ["animation_id", "unknown", "name"]
        def __init__(self, info_version, _io, _parent=None, _root=None):
            super(Ancs.AnimationName, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.info_version = info_version
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['animation_id']['start'] = self._io.pos()
            self.animation_id = self._io.read_u4be()
            self._debug['animation_id']['end'] = self._io.pos()
            if self.info_version < 10:
                pass
                self._debug['unknown']['start'] = self._io.pos()
                self.unknown = (self._io.read_bytes_term(0, False, True, True)).decode(u"ASCII")
                self._debug['unknown']['end'] = self._io.pos()

            self._debug['name']['start'] = self._io.pos()
            self.name = (self._io.read_bytes_term(0, False, True, True)).decode(u"ASCII")
            self._debug['name']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            if self.info_version < 10:
                pass



    class Character(KaitaiStruct):
        SEQ_FIELDS = ["id", "info_version", "name", "model_id", "skin_id", "skeleton_id", "num_animation_names", "animation_names", "pas4", "particles", "unknown", "num_animation_aabbs", "animation_aabbs", "num_effects", "effects", "overlay_model_id", "overlay_skin_id", "animation_index_map", "spatial_primitives", "num_indexed_aabbs", "indexed_aabbs"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Ancs.Character, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            _animre_r = _animre_run(self._io, 6, _animre_run_0)
            if _animre_r is None:
                self._debug['id']['start'] = self._io.pos()
                self.id = self._io.read_u4be()
                self._debug['id']['end'] = self._io.pos()
                self._debug['info_version']['start'] = self._io.pos()
                self.info_version = self._io.read_u2be()
                self._debug['info_version']['end'] = self._io.pos()
            else:
                _animre_p, (self.id, self.info_version,) = _animre_r
                _animre_d = self._debug
                _animre_d['id'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['info_version'] = {'start': _animre_p + 4, 'end': _animre_p + 6}
            if not self.info_version >= 1:
                raise kaitaistruct.ValidationLessThanError(1, self.info_version, self._io, u"/types/character/seq/1")
            if not self.info_version <= 10:
                raise kaitaistruct.ValidationGreaterThanError(10, self.info_version, self._io, u"/types/character/seq/1")
            self._debug['name']['start'] = self._io.pos()
            self.name = (self._io.read_bytes_term(0, False, True, True)).decode(u"ASCII")
            self._debug['name']['end'] = self._io.pos()
            _animre_r = _animre_run(self._io, 16, _animre_run_1)
            if _animre_r is None:
                self._debug['model_id']['start'] = self._io.pos()
                self.model_id = self._io.read_u4be()
                self._debug['model_id']['end'] = self._io.pos()
                self._debug['skin_id']['start'] = self._io.pos()
                self.skin_id = self._io.read_u4be()
                self._debug['skin_id']['end'] = self._io.pos()
                self._debug['skeleton_id']['start'] = self._io.pos()
                self.skeleton_id = self._io.read_u4be()
                self._debug['skeleton_id']['end'] = self._io.pos()
                self._debug['num_animation_names']['start'] = self._io.pos()
                self.num_animation_names = self._io.read_u4be()
                self._debug['num_animation_names']['end'] = self._io.pos()
            else:
                _animre_p, (self.model_id, self.skin_id, self.skeleton_id, self.num_animation_names,) = _animre_r
                _animre_d = self._debug
                _animre_d['model_id'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['skin_id'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
                _animre_d['skeleton_id'] = {'start': _animre_p + 8, 'end': _animre_p + 12}
                _animre_d['num_animation_names'] = {'start': _animre_p + 12, 'end': _animre_p + 16}
            _ = self.num_animation_names
            if not _ * (6 if self.info_version < 10 else 5) <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_animation_names, self._io, u"/types/character/seq/6")
            self._debug['animation_names']['start'] = self._io.pos()
            self._debug['animation_names']['arr'] = []
            self.animation_names = []
            for i in range(self.num_animation_names):
                self._debug['animation_names']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['animation_names']['arr'], self._io)
                _t_animation_names = Ancs.AnimationName(self.info_version, self._io, self, self._root)
                try:
                    _t_animation_names._read()
                finally:
                    self.animation_names.append(_t_animation_names)
                self._debug['animation_names']['arr'][i]['end'] = self._io.pos()

            self._debug['animation_names']['end'] = self._io.pos()
            self._debug['pas4']['start'] = self._io.pos()
            self.pas4 = pas4.Pas4(self._io)
            self.pas4._read()
            self._debug['pas4']['end'] = self._io.pos()
            self._debug['particles']['start'] = self._io.pos()
            self.particles = Ancs.ParticleLists(self.info_version, self._io, self, self._root)
            self.particles._read()
            self._debug['particles']['end'] = self._io.pos()
            self._debug['unknown']['start'] = self._io.pos()
            self.unknown = self._io.read_bytes((8 if self.info_version >= 10 else 4))
            self._debug['unknown']['end'] = self._io.pos()
            if self.info_version > 1:
                pass
                self._debug['num_animation_aabbs']['start'] = self._io.pos()
                self.num_animation_aabbs = self._io.read_u4be()
                self._debug['num_animation_aabbs']['end'] = self._io.pos()
                _ = self.num_animation_aabbs
                if not _ * 25 <= self._io.size() - self._io.pos():
                    raise kaitaistruct.ValidationExprError(self.num_animation_aabbs, self._io, u"/types/character/seq/11")

            if self.info_version > 1:
                pass
                self._debug['animation_aabbs']['start'] = self._io.pos()
                self._debug['animation_aabbs']['arr'] = []
                self.animation_aabbs = []
                for i in range(self.num_animation_aabbs):
                    self._debug['animation_aabbs']['arr'].append({'start': self._io.pos()})
                    if i & 4095 == 4095:
                        _animre_check(self._debug['animation_aabbs']['arr'], self._io)
                    _t_animation_aabbs = Ancs.AnimationAabb(self._io, self, self._root)
                    try:
                        _t_animation_aabbs._read()
                    finally:
                        self.animation_aabbs.append(_t_animation_aabbs)
                    self._debug['animation_aabbs']['arr'][i]['end'] = self._io.pos()

                self._debug['animation_aabbs']['end'] = self._io.pos()

            if self.info_version > 2:
                pass
                self._debug['num_effects']['start'] = self._io.pos()
                self.num_effects = self._io.read_u4be()
                self._debug['num_effects']['end'] = self._io.pos()
                _ = self.num_effects
                if not _ * 5 <= self._io.size() - self._io.pos():
                    raise kaitaistruct.ValidationExprError(self.num_effects, self._io, u"/types/character/seq/13")

            if self.info_version > 2:
                pass
                self._debug['effects']['start'] = self._io.pos()
                self._debug['effects']['arr'] = []
                self.effects = []
                for i in range(self.num_effects):
                    self._debug['effects']['arr'].append({'start': self._io.pos()})
                    if i & 4095 == 4095:
                        _animre_check(self._debug['effects']['arr'], self._io)
                    _t_effects = Ancs.Effect(self.info_version, self._io, self, self._root)
                    try:
                        _t_effects._read()
                    finally:
                        self.effects.append(_t_effects)
                    self._debug['effects']['arr'][i]['end'] = self._io.pos()

                self._debug['effects']['end'] = self._io.pos()

            if self.info_version > 3:
                pass
                self._debug['overlay_model_id']['start'] = self._io.pos()
                self.overlay_model_id = self._io.read_u4be()
                self._debug['overlay_model_id']['end'] = self._io.pos()

            if self.info_version > 3:
                pass
                self._debug['overlay_skin_id']['start'] = self._io.pos()
                self.overlay_skin_id = self._io.read_u4be()
                self._debug['overlay_skin_id']['end'] = self._io.pos()

            if self.info_version > 4:
                pass
                self._debug['animation_index_map']['start'] = self._io.pos()
                self.animation_index_map = Ancs.IdList(self._io, self, self._root)
                self.animation_index_map._read()
                self._debug['animation_index_map']['end'] = self._io.pos()

            if self.info_version >= 10:
                pass
                self._debug['spatial_primitives']['start'] = self._io.pos()
                self.spatial_primitives = self._io.read_bytes(5)
                self._debug['spatial_primitives']['end'] = self._io.pos()

            if self.info_version >= 10:
                pass
                self._debug['num_indexed_aabbs']['start'] = self._io.pos()
                self.num_indexed_aabbs = self._io.read_u4be()
                self._debug['num_indexed_aabbs']['end'] = self._io.pos()
                _ = self.num_indexed_aabbs
                if not _ * 28 <= self._io.size() - self._io.pos():
                    raise kaitaistruct.ValidationExprError(self.num_indexed_aabbs, self._io, u"/types/character/seq/19")

            if self.info_version >= 10:
                pass
                self._debug['indexed_aabbs']['start'] = self._io.pos()
                self._debug['indexed_aabbs']['arr'] = []
                self.indexed_aabbs = []
                for i in range(self.num_indexed_aabbs):
                    self._debug['indexed_aabbs']['arr'].append({'start': self._io.pos()})
                    if i & 4095 == 4095:
                        _animre_check(self._debug['indexed_aabbs']['arr'], self._io)
                    self.indexed_aabbs.append(self._io.read_bytes(28))
                    self._debug['indexed_aabbs']['arr'][i]['end'] = self._io.pos()

                self._debug['indexed_aabbs']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            for i in range(len(self.animation_names)):
                pass
                self.animation_names[i]._fetch_instances()

            self.pas4._fetch_instances()
            self.particles._fetch_instances()
            if self.info_version > 1:
                pass

            if self.info_version > 1:
                pass
                for i in range(len(self.animation_aabbs)):
                    pass
                    self.animation_aabbs[i]._fetch_instances()


            if self.info_version > 2:
                pass

            if self.info_version > 2:
                pass
                for i in range(len(self.effects)):
                    pass
                    self.effects[i]._fetch_instances()


            if self.info_version > 3:
                pass

            if self.info_version > 3:
                pass

            if self.info_version > 4:
                pass
                self.animation_index_map._fetch_instances()

            if self.info_version >= 10:
                pass

            if self.info_version >= 10:
                pass

            if self.info_version >= 10:
                pass
                for i in range(len(self.indexed_aabbs)):
                    pass




    class CharacterSet(KaitaiStruct):
        SEQ_FIELDS = ["version", "num_characters", "characters"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Ancs.CharacterSet, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_u2be()
            self._debug['version']['end'] = self._io.pos()
            if not self.version == 1:
                raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/types/character_set/seq/0")
            self._debug['num_characters']['start'] = self._io.pos()
            self.num_characters = self._io.read_u4be()
            self._debug['num_characters']['end'] = self._io.pos()
            _ = self.num_characters
            if not _ * 51 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_characters, self._io, u"/types/character_set/seq/1")
            self._debug['characters']['start'] = self._io.pos()
            self._debug['characters']['arr'] = []
            self.characters = []
            for i in range(self.num_characters):
                self._debug['characters']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['characters']['arr'], self._io)
                _t_characters = Ancs.Character(self._io, self, self._root)
                try:
                    _t_characters._read()
                finally:
                    self.characters.append(_t_characters)
                self._debug['characters']['arr'][i]['end'] = self._io.pos()

            self._debug['characters']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.characters)):
                pass
                self.characters[i]._fetch_instances()



    class Effect(KaitaiStruct):
        SEQ_FIELDS = ["name", "num_components", "components"]
        def __init__(self, info_version, _io, _parent=None, _root=None):
            super(Ancs.Effect, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.info_version = info_version
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name']['start'] = self._io.pos()
            self.name = (self._io.read_bytes_term(0, False, True, True)).decode(u"ASCII")
            self._debug['name']['end'] = self._io.pos()
            self._debug['num_components']['start'] = self._io.pos()
            self.num_components = self._io.read_u4be()
            self._debug['num_components']['end'] = self._io.pos()
            _ = self.num_components
            if not _ * 21 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_components, self._io, u"/types/effect/seq/1")
            self._debug['components']['start'] = self._io.pos()
            self._debug['components']['arr'] = []
            self.components = []
            for i in range(self.num_components):
                self._debug['components']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['components']['arr'], self._io)
                _t_components = Ancs.EffectComponent(self.info_version, self._io, self, self._root)
                try:
                    _t_components._read()
                finally:
                    self.components.append(_t_components)
                self._debug['components']['arr'][i]['end'] = self._io.pos()

            self._debug['components']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.components)):
                pass
                self.components[i]._fetch_instances()



    class EffectComponent(KaitaiStruct):
        SEQ_FIELDS = ["name", "particle_type", "particle_id", "bone_id", "bone_name", "scale", "parented_mode", "flags"]
        def __init__(self, info_version, _io, _parent=None, _root=None):
            super(Ancs.EffectComponent, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.info_version = info_version
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name']['start'] = self._io.pos()
            self.name = (self._io.read_bytes_term(0, False, True, True)).decode(u"ASCII")
            self._debug['name']['end'] = self._io.pos()
            self._debug['particle_type']['start'] = self._io.pos()
            self.particle_type = (self._io.read_bytes(4)).decode(u"ASCII")
            self._debug['particle_type']['end'] = self._io.pos()
            self._debug['particle_id']['start'] = self._io.pos()
            self.particle_id = self._io.read_u4be()
            self._debug['particle_id']['end'] = self._io.pos()
            if self.info_version >= 10:
                pass
                self._debug['bone_id']['start'] = self._io.pos()
                self.bone_id = self._io.read_u4be()
                self._debug['bone_id']['end'] = self._io.pos()

            if self.info_version < 10:
                pass
                self._debug['bone_name']['start'] = self._io.pos()
                self.bone_name = (self._io.read_bytes_term(0, False, True, True)).decode(u"ASCII")
                self._debug['bone_name']['end'] = self._io.pos()

            _animre_r = _animre_run(self._io, 12, _animre_run_2)
            if _animre_r is None:
                self._debug['scale']['start'] = self._io.pos()
                self.scale = self._io.read_f4be()
                self._debug['scale']['end'] = self._io.pos()
                self._debug['parented_mode']['start'] = self._io.pos()
                self.parented_mode = self._io.read_u4be()
                self._debug['parented_mode']['end'] = self._io.pos()
                self._debug['flags']['start'] = self._io.pos()
                self.flags = self._io.read_u4be()
                self._debug['flags']['end'] = self._io.pos()
            else:
                _animre_p, (self.scale, self.parented_mode, self.flags,) = _animre_r
                _animre_d = self._debug
                _animre_d['scale'] = {'start': _animre_p + 0, 'end': _animre_p + 4}
                _animre_d['parented_mode'] = {'start': _animre_p + 4, 'end': _animre_p + 8}
                _animre_d['flags'] = {'start': _animre_p + 8, 'end': _animre_p + 12}


        def _fetch_instances(self):
            pass
            if self.info_version >= 10:
                pass

            if self.info_version < 10:
                pass



    class IdList(KaitaiStruct):
        SEQ_FIELDS = ["num_ids", "ids"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Ancs.IdList, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_ids']['start'] = self._io.pos()
            self.num_ids = self._io.read_u4be()
            self._debug['num_ids']['end'] = self._io.pos()
            _ = self.num_ids
            if not _ * 4 <= self._io.size() - self._io.pos():
                raise kaitaistruct.ValidationExprError(self.num_ids, self._io, u"/types/id_list/seq/0")
            self._debug['ids']['start'] = self._io.pos()
            self._debug['ids']['arr'] = []
            self.ids = []
            for i in range(self.num_ids):
                self._debug['ids']['arr'].append({'start': self._io.pos()})
                if i & 4095 == 4095:
                    _animre_check(self._debug['ids']['arr'], self._io)
                self.ids.append(self._io.read_u4be())
                self._debug['ids']['arr'][i]['end'] = self._io.pos()

            self._debug['ids']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.ids)):
                pass



    class ParticleLists(KaitaiStruct):
        SEQ_FIELDS = ["part", "swhc", "unknown_word", "unknown", "elsc", "spsc"]
        def __init__(self, info_version, _io, _parent=None, _root=None):
            super(Ancs.ParticleLists, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.info_version = info_version
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['part']['start'] = self._io.pos()
            self.part = Ancs.IdList(self._io, self, self._root)
            self.part._read()
            self._debug['part']['end'] = self._io.pos()
            self._debug['swhc']['start'] = self._io.pos()
            self.swhc = Ancs.IdList(self._io, self, self._root)
            self.swhc._read()
            self._debug['swhc']['end'] = self._io.pos()
            if self.info_version >= 10:
                pass
                self._debug['unknown_word']['start'] = self._io.pos()
                self.unknown_word = self._io.read_u4be()
                self._debug['unknown_word']['end'] = self._io.pos()

            if self.info_version < 10:
                pass
                self._debug['unknown']['start'] = self._io.pos()
                self.unknown = Ancs.IdList(self._io, self, self._root)
                self.unknown._read()
                self._debug['unknown']['end'] = self._io.pos()

            if self.info_version > 5:
                pass
                self._debug['elsc']['start'] = self._io.pos()
                self.elsc = Ancs.IdList(self._io, self, self._root)
                self.elsc._read()
                self._debug['elsc']['end'] = self._io.pos()

            if self.info_version >= 10:
                pass
                self._debug['spsc']['start'] = self._io.pos()
                self.spsc = Ancs.IdList(self._io, self, self._root)
                self.spsc._read()
                self._debug['spsc']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            self.part._fetch_instances()
            self.swhc._fetch_instances()
            if self.info_version >= 10:
                pass

            if self.info_version < 10:
                pass
                self.unknown._fetch_instances()

            if self.info_version > 5:
                pass
                self.elsc._fetch_instances()

            if self.info_version >= 10:
                pass
                self.spsc._fetch_instances()

def _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)
    pass

def _animre_run(io, n, unpack):  # animre replaces this (animre/spec/streams.py)
    return None


import struct as _animre_struct  # noqa: E402
_animre_run_0 = _animre_struct.Struct('>IH').unpack
_animre_run_1 = _animre_struct.Struct('>IIII').unpack
_animre_run_2 = _animre_struct.Struct('>fII').unpack
