"""The sentence model shipped with rootfaq: see SOURCE.md here."""
