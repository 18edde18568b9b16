"""Device drivers of the kiosk, each behind a small interface with a real and a simulated backend.

The bag button (gpiozero), the RFID tile reader (pyserial) and the WS281x LED rings (rpi-ws281x)
turn into typed events and accept simple cues. This package knows nothing of Tantrix rules or of
the UI: it only reports what the devices did and shows what it is told to show.
"""
