package main

import "strings"

// splitJavaArgs separates the Java launcher's arguments from dynamoemu's
// flags, so that command lines written for DynamoDB Local's container image
// (ENTRYPOINT java; arguments such as
// "-Djava.library.path=./DynamoDBLocal_lib -jar DynamoDBLocal.jar -sharedDb")
// run unchanged. The Java arguments are "-jar" with a .jar file and the JVM
// options (-D..., -X...; no dynamoemu flag starts so) right before it; they
// may follow other flags, such as the image's ENTRYPOINT "-host 0.0.0.0".
// Without "-jar FILE.jar", java is nil and flags is args.
func splitJavaArgs(args []string) (java, flags []string) {
	for i, a := range args {
		if a != "-jar" || i+1 == len(args) || !strings.HasSuffix(args[i+1], ".jar") {
			continue
		}
		start := i
		for start > 0 && (strings.HasPrefix(args[start-1], "-D") || strings.HasPrefix(args[start-1], "-X")) {
			start--
		}
		flags = append(append(flags, args[:start]...), args[i+2:]...)
		return args[start : i+2], flags
	}
	return nil, args
}
