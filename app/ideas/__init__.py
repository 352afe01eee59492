"""The ideas portal: ideas, votes, comments, the roadmap and the changelog (docs/ideas.md)."""
