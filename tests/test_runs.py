"""Run folders and files: identity, the one-line refusal, set aside never deleted, atomic writes."""

import json
import os
import stat

import pytest

from bct.config.runs import check_same, differing, digest, set_aside
from bct.core.errors import UserError
from bct.core.files import read_record, write_atomic


def test_written_files_honour_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "x.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "x.json").stat().st_mode) == 0o644


def test_settings_that_differ_are_all_named_in_one_line(tmp_path):
    before, after = {"lr": 0.1, "seed": 1, "epochs": 2}, {"lr": 0.2, "seed": 1, "batch_size": 4, "epochs": 2}
    assert differing(before, after) == ["batch_size", "lr"]
    assert differing({"checkpoint": None}, {}) == []  # a missing setting reads as null
    with pytest.raises(UserError, match=r"holds a run \(differs in: batch_size, lr\); choose another"):
        check_same(tmp_path, before, after, "a run", "choose another")
    check_same(tmp_path, after, dict(after), "a run", "")
    assert digest(before) == digest(dict(reversed(before.items()))) != digest(after)


def test_what_is_set_aside_is_never_deleted(tmp_path):
    for n in range(3):
        (tmp_path / "dev").mkdir()
        (tmp_path / "dev" / "results.json").write_text(str(n))
        set_aside(tmp_path / "dev", "unreadable")
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["dev.replaced-unreadable", "dev.replaced-unreadable-2", "dev.replaced-unreadable-3"]
    assert sorted((tmp_path / k / "results.json").read_text() for k in kept) == ["0", "1", "2"]


def test_a_damaged_record_reads_as_none(tmp_path):
    (tmp_path / "a.json").write_text('{"settings": ')
    (tmp_path / "b.json").write_text('{"settings": {"x": 1}}')
    assert read_record(tmp_path / "a.json") is None and read_record(tmp_path / "b.json", ["other"]) is None
    assert read_record(tmp_path / "b.json", ["settings"]) == {"settings": {"x": 1}}


def test_a_folder_in_use_is_refused_naming_its_holder_and_a_dead_holders_lock_is_taken_over(tmp_path):
    import subprocess
    import sys
    import time

    from bct.core.lock import FolderLock

    folder = tmp_path / "run"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, time; from pathlib import Path; from bct.core.lock import FolderLock\n"
                f"with FolderLock(Path({str(folder)!r}), 'a test'):\n    print('held', flush=True); time.sleep(60)"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(UserError, match=rf"{folder} is in use by a test \(pid {holder.pid} on "):
            with FolderLock(folder, "another"):
                pass
    finally:
        holder.kill()
        holder.wait()
    start = time.time()
    with FolderLock(folder, "after a crash"):  # the holder died without releasing: taken over
        assert (tmp_path / ".run.lock").exists()
    assert not (tmp_path / ".run.lock").exists() and time.time() - start < 5


def test_editing_another_games_entry_of_a_preset_table_keeps_a_runs_identity(train_config, tmp_path):
    from bct.config.runs import claim_run_dir, train_run_dir, train_settings

    cfg = train_config("+game=peckingorder", "model=t5-cpu-scratch")
    settings = train_settings(cfg)
    assert "epochs_by_game" not in settings["model"] and settings["epochs"] == 4
    edited = train_config("+game=peckingorder", "model=t5-cpu-scratch", "+model.epochs_by_game.newgame=9")
    assert train_settings(edited) == settings and train_run_dir(edited, train_settings(edited)) == train_run_dir(
        cfg, settings
    )
    # a run recorded with the tables (before they were left out) is still the same run, and resumes
    run = tmp_path / "ck" / "old"
    saved = run / "trainer" / "checkpoint-10"  # a run under way: one whole checkpoint
    saved.mkdir(parents=True)
    for name in ("model.safetensors", "trainer_state.json", "optimizer.pt"):
        (saved / name).write_text("{}")
    old = {**settings, "model": {**settings["model"], "epochs_by_game": {"twc": 30}}}
    write_atomic(run / "bct_config.json", json.dumps({"status": "training", "settings": old}))
    assert claim_run_dir(settings, run, overwrite=False) == run
    with pytest.raises(UserError, match=r"differs in: epochs"):
        claim_run_dir({**settings, "epochs": 5}, run, overwrite=False)


def test_a_game_given_another_module_is_another_run(train_config, monkeypatch):
    """A game's module is a setting of the run: the power circuits, given `circuit`, train from other data, and a run
    trained before must not be taken for the new one."""
    from dataclasses import replace

    from bct.config.runs import train_run_dir, train_settings
    from bct.worlds import registry

    overrides = ("games=[scienceworld-power-component,scienceworld-boil]", "modules=true", "model=t5-cpu-scratch")
    cfg = train_config(*overrides)
    settings = train_settings(cfg)
    assert settings["played_with"] == {"scienceworld-power-component": ["circuit", "memory-scienceworld"]}
    game = registry.GAMES["scienceworld-power-component"]
    monkeypatch.setitem(registry.GAMES, game.name, replace(game, module=""))  # as it was before `circuit`
    before = train_config(*overrides)
    assert "played_with" not in train_settings(before)
    assert train_run_dir(before, train_settings(before)) != train_run_dir(cfg, settings)
    # without modules every game plays as it is: nothing recorded
    assert "played_with" not in train_settings(train_config(*overrides[:1], "modules=false", "model=t5-cpu-scratch"))


def test_a_twx_run_recorded_before_its_memory_was_named_memory_twx_is_the_same_run(tmp_path):
    """A finished run whose record names TWX's memory by its old name ("memory") is found done, not refused."""
    import json

    from bct.config.runs import claim_run_dir

    settings = {"game": "coin", "modules": "all", "played_with": {"coin": ["calc", "navigation", "memory-twx"]}}
    old = {**settings, "played_with": {"coin": ["calc", "navigation", "memory"]}}
    run = tmp_path / "coin-run"
    run.mkdir()
    (run / "bct_config.json").write_text(json.dumps({"status": "done", "settings": old}))
    assert claim_run_dir(settings, run, overwrite=False) is None  # already trained: nothing to do
