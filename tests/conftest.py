pytest_plugins = ["tests.fakebot.fixtures"]
