"""The zip of Civ3 FLC samples: one seed, one archive, byte for byte (no clock in it)."""

from __future__ import annotations

import zipfile

from animre.formats.flc import zip_samples


def test_the_same_seed_writes_the_same_archive(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    ma, mb = zip_samples.generate(a, 2097), zip_samples.generate(b, 2097)
    arch = f"{zip_samples.SUBDIR}/{zip_samples.ARCHIVE}"
    assert ma == mb
    assert (a / arch).read_bytes() == (b / arch).read_bytes()
    with zipfile.ZipFile(a / arch) as z:
        infos = z.infolist()
    assert len(infos) == zip_samples.N_FLC
    assert {i.date_time for i in infos} == {zip_samples.STAMP}
    # half deflated, half stored, as the manifest says
    assert [i.compress_type == zipfile.ZIP_DEFLATED for i in infos] == [
        ma["files"][f"{arch}/{i.filename}"]["compressed"] for i in infos]
