"""Hexen Rennen (Wolfgang Panning, Queen Games 2001): witches racing along a chain-reaction track."""
