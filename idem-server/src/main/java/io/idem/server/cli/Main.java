package io.idem.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code idem} command line. */
@Command(
        name = "idem",
        mixinStandardHelpOptions = true,
        version = "idem 0.1.0",
        description = "Billing-safe failover gateway for paid AI generation.",
        subcommands = {ServeCommand.class, FakeProviderCommand.class, KeysCommand.class, ReviewCommand.class})
public final class Main implements Runnable {
    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
