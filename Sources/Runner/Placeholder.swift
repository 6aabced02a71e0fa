import KizunaWire
