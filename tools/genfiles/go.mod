module pulumi-uptime/tools/genfiles

go 1.24
