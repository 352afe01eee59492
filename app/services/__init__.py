"""Domain logic: projects, ratings, statistics, feedback, contact messages. No HTTP in here."""
