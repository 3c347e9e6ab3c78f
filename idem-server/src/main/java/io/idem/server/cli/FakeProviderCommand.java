package io.idem.server.cli;

import io.idem.providers.fake.FakeVendorServer;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code idem fake-provider --port N}: the fake vendor alone, as its own process. */
@Command(name = "fake-provider", description = "Run the fake vendor emulator on 127.0.0.1.")
final class FakeProviderCommand implements Callable<Integer> {
    @Option(names = "--port", required = true, description = "Port to listen on (0 = any free port).")
    int port;

    @Override
    public Integer call() throws InterruptedException {
        FakeVendorServer server = FakeVendorServer.start(port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        System.out.println("fake vendor listening on " + server.baseUrl());
        stopped.await();
        return 0;
    }
}
