"""Reading results back: tables, the HTML report, the published comparisons, looking at episodes, sharing."""
