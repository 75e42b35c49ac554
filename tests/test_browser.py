"""The HTML report in a real headless browser: Debian's chromium driven through selenium.

Skipped with the reason where chromium, its driver or selenium is missing (`.ci/run` installs them)."""

import json

import pytest

import bct.jobs.evaluation as ev
from bct.core.results import collect
from bct.reports.html import write_html

pytestmark = pytest.mark.slow


def test_the_report_page_shows_the_results_and_opens_an_episode_offline(browser, tmp_path, eval_config):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    for agent in ("oracle", "random"):
        ev.evaluate(eval_config(f"agent={agent}", "+game=twc", "num_variations=3", "fold=dev"))
    results = tmp_path / "results"
    page = write_html(results, tmp_path / "report.html", collect(results))
    assert "http://" not in page.read_text() and "https://" not in page.read_text()  # nothing fetched
    browser.get(page.as_uri())

    rows = {r.get_attribute("data-run"): r for r in browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")}
    for saved in results.rglob("results.json"):
        res = json.loads(saved.read_text())
        row = rows[saved.parent.parent.name]
        assert row.find_element(By.CSS_SELECTOR, "td.score").text == f"{res['avg_score']:.3f}"
        assert row.find_element(By.CSS_SELECTOR, "td.agent").text == res["agent"]

    # TWX's own table (bct/worlds/twx/report.py), drawn as HTML under its heading; no other world's without results
    family = browser.find_element(By.ID, "world-twx")
    assert family.is_displayed() and family.find_element(By.TAG_NAME, "h2").text == "TextWorldExpress"
    head = [th.text for th in family.find_elements(By.CSS_SELECTOR, "table thead th")]
    saved = json.loads(next(p for p in results.rglob("results.json") if "oracle" in str(p)).read_text())
    cells = family.find_elements(By.XPATH, ".//table//tr[td[1]='oracle']/td")
    assert cells[head.index("twc")].text == f"{saved['avg_score']:.2f} ({saved['avg_env_steps']:.1f})"
    assert "dev fold" in family.text and not browser.find_elements(By.ID, "world-scienceworld")

    oracle = json.loads(
        next(p for p in results.rglob("histories.jsonl") if "oracle" in str(p)).read_text().splitlines()[0]
    )
    episode = browser.find_element(
        By.XPATH, f"//section[@data-agent='oracle']//details[.//span[@class='seed' and text()='{oracle['seed']}']]"
    )
    steps = episode.find_elements(By.CSS_SELECTOR, "tr.step")
    assert not steps[0].is_displayed()  # collapsed until opened
    episode.find_element(By.TAG_NAME, "summary").click()
    assert len(steps) == len(oracle["history"]) and steps[0].is_displayed()
    assert [s.find_element(By.CSS_SELECTOR, "td.act").text for s in steps] == [h["action"] for h in oracle["history"]]
    modules = [s for s in steps if "module" in s.get_attribute("class").split()]
    assert len(modules) == sum(h["from_module"] for h in oracle["history"]) > 0  # module calls set apart

    shown = browser.find_element(By.ID, "shown")
    total = int(shown.text)
    browser.find_element(By.ID, "failed-only").click()  # the oracle solves all: only random's failures stay
    unsolved = sum(
        not json.loads(line)["success"] for p in results.rglob("histories.jsonl") for line in p.read_text().splitlines()
    )
    assert int(shown.text) == unsolved < total and not episode.is_displayed()
    browser.find_element(By.ID, "failed-only").click()
    Select(browser.find_element(By.ID, "agent-filter")).select_by_value("oracle")
    assert int(shown.text) == 3 and episode.is_displayed()

    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    shot = tmp_path / "report.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
